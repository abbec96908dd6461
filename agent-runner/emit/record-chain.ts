/**
 * The runner's side of stored requests (docs/architecture.md#stored-requests): each model call's
 * record leaves the runner as what its request adds to the request of the last record it posted
 * in the run, so the bytes crossing to the host per call stay the size of one turn, not of the
 * whole conversation. A record that is still over the host's bound is posted as a stand-in saying
 * so (the host would refuse it), and the next record extends the last one posted. Cost per
 * record: one `JSON.stringify` of its request, which the provider has just done to send it.
 */
import type { LlmRecord } from '../../shared/protocol/runner';
import { compactPrinted, printRequest, type RequestPrint } from '../../shared/protocol/request-delta';
import { DEFAULT_LIMITS, jsonSize, notKeptRequest, overBound } from '../../shared/protocol/frame-limits';

/** The records of one run on their way to the host. */
export class RecordChain {
  /**
   * The last record posted: its node, and its request as JSON text as it was when posted (the
   * objects of a request may change afterwards: the scripted model's messages are the loop's own,
   * which gets tool results filled in).
   */
  private last: { nodeId: string; print: RequestPrint | undefined } | undefined;

  /** @param maxBytes the host's bound for one record (JSON length), default 32 MiB. */
  constructor(private readonly maxBytes = DEFAULT_LIMITS.maxRecordBytes) {}

  /**
   * The record to post for `rec` (its request whole): its request stored against the last
   * record posted (`requestBase`), or, over the bound, a stand-in with the request `{ omitted }`
   * and no events, which the next record does not extend.
   */
  next(rec: LlmRecord): LlmRecord {
    const print = printRequest(rec.request);
    const c = this.last ? compactPrinted(rec.request, print, this.last.print, this.last.nodeId) : { request: rec.request };
    const out: LlmRecord = { ...rec, request: c.request, ...(c.requestBase ? { requestBase: c.requestBase } : {}) };
    const size = jsonSize(out);
    if (size > this.maxBytes) return { v: 1, type: 'llm_record', runId: rec.runId, nodeId: rec.nodeId, api: rec.api, request: notKeptRequest(overBound('llm_record', size, this.maxBytes)), events: [] };
    this.last = { nodeId: rec.nodeId, print };
    return out;
  }
}
