/**
 * A host in its own process for the host-crash test: opens `slow.json` in the workspace of
 * `$STEPWISE_HOME`, starts one run and prints `{ runId, threadId, pid }` as a JSON line, then
 * stays up until it is killed.
 */
import { createHostCore } from '../../main/core/host-core';

const core = await createHostCore({ log: () => {} });
const conn = core.connect(() => {});
const opened = (await conn.request('thread.open', { path: 'slow.json' })) as { thread: { id: string } };
const { runId } = (await conn.request('run.start', { threadId: opened.thread.id, mode: 'step' })) as { runId: string };
process.stdout.write(`${JSON.stringify({ runId, threadId: opened.thread.id, pid: core.supervisor.get(runId)?.pid })}\n`);
setInterval(() => {}, 1000);
