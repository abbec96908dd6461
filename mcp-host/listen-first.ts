/**
 * Streamable HTTP: the standalone GET stream opened before `notifications/initialized` is sent,
 * not after (docs/architecture.md#mcp-channel). The SDK's client transport opens that stream only
 * once the server has accepted the notification (its 202), while a server that asks for roots as
 * soon as it is initialized (as @modelcontextprotocol/server-filesystem does) sends its
 * `roots/list` from the handler of that same notification: with no stream open yet the server's
 * transport drops it, and the server waits until "MCP error -32001: Request timed out". The
 * session id is known from the initialize response, which is all the GET needs.
 *
 * It uses the SDK transport's own `_startOrAuthSse` (not public API, present in 1.x): where a
 * version lacks it, the transport is left as it is.
 */
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type StartSse = (options: { resumptionToken?: string; replayMessageId?: string | number }) => Promise<void>;

/** Makes `t` open its GET stream before it sends `notifications/initialized` (see the module comment); returns `t`. */
export function listenBeforeInitialized(t: StreamableHTTPClientTransport): StreamableHTTPClientTransport {
  const inner = t as unknown as { _startOrAuthSse?: StartSse };
  const startSse = inner._startOrAuthSse?.bind(t);
  if (!startSse) return t;
  // The SDK opens the stream again after the notification's 202: that one call is skipped (a
  // server allows one standalone stream per session); reconnections go through as ever.
  let skipNext = false;
  inner._startOrAuthSse = (options) => {
    if (skipNext && !options.resumptionToken) {
      skipNext = false;
      return Promise.resolve();
    }
    return startSse(options);
  };
  const send = t.send.bind(t);
  t.send = async (message: JSONRPCMessage, options) => {
    if ('method' in message && message.method === 'notifications/initialized' && !('id' in message) && t.sessionId) {
      // Resolves once the server answered the GET (the stream is registered), or it refused it (405: no stream offered).
      await startSse({ resumptionToken: undefined }).then(
        () => void (skipNext = true),
        () => undefined,
      );
    }
    return send(message, options);
  };
  return t;
}
