/**
 * How a page proves itself to the web host (docs/architecture.md#host-api). The per-launch token starts any command (a stdio
 * MCP server), so it is a secret: it reaches the page once, in the URL the host prints
 * (`/?token=…`), and the page then keeps it in sessionStorage and sends it
 * - on the WebSocket as a subprotocol: `new WebSocket(url, [WS_PROTOCOL, tokenProtocol(token)])`
 *   (the host answers with {@link WS_PROTOCOL}, never echoing the token), and
 * - on HTTP requests as `Authorization: Bearer <token>`.
 * Never as a cookie (a cookie for 127.0.0.1 goes to every port on it) and never in a URL that
 * stays visible.
 *
 * The session check: `GET /api/session` with the page's token answers 204 while the token is
 * this launch's, and 401 once it is not (the host was restarted). A browser cannot read why a
 * WebSocket handshake failed; this request tells it.
 */
export const SESSION_PATH = '/api/session';

/** The subprotocol the host selects on every accepted WebSocket. */
export const WS_PROTOCOL = 'stepwise.v1';

/** Prefix of the subprotocol that carries the token. */
export const TOKEN_PROTOCOL_PREFIX = 'stepwise.token.';

/**
 * What a token may look like: base64url characters, all of them valid in a subprotocol name
 * (RFC 6455 §4.1: an HTTP token) and in a URL without escaping. Generated tokens are 43 long.
 */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/** The subprotocol carrying `token` (see {@link TOKEN_PATTERN} for why it is always valid). */
export function tokenProtocol(token: string): string {
  return `${TOKEN_PROTOCOL_PREFIX}${token}`;
}
