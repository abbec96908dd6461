/** `stream.*`: a client's subscription to live runs, snapshot requests and acknowledgements. */
import type { DomainHandlers } from './types';

export const streamHandlers: DomainHandlers<'stream'> = {
  'stream.subscribe': async (_ctx, client, p) => {
    client.stream.subscribe(p.threadId);
    return { ok: true };
  },
  'stream.snapshot': async (_ctx, client, p) => {
    client.stream.requestSnapshot(p.runId, p.nodeId);
    return { ok: true };
  },
  'stream.ack': async (_ctx, client, p) => {
    client.stream.ack(p.count);
    return { ok: true };
  },
};
