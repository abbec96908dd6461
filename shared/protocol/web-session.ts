/**
 * The web host's session check (docs/architecture.md#host-api): `GET /api/session` with the page's token answers
 * 204 while the token is this launch's, and 401 once it is not (the host was restarted). A
 * browser cannot read why a WebSocket handshake failed; this request tells it.
 */
export const SESSION_PATH = '/api/session';
