// A stand-in mcp-host for the host's receive checks: a real child process on the Node process
// link (`{ ch: 'mcp', msg }` frames) that greets, answers every request, and answers a tool
// call by first sending the frames in the call's `arguments.junk` (with "$RUN" and "$CALL"
// replaced by the call's run and call ids), then the call's real result, "real result".
const send = (msg) => process.send({ ch: 'mcp', msg });

/** `v` with the strings "$RUN" / "$CALL" replaced, however deep. */
function fill(v, runId, callId) {
  if (v === '$RUN') return runId;
  if (v === '$CALL') return callId;
  if (Array.isArray(v)) return v.map((x) => fill(x, runId, callId));
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, runId, callId)]));
  }
  return v;
}

process.on('message', (frame) => {
  const m = frame?.msg;
  if (frame?.ch !== 'mcp' || !m) return;
  if (m.type === 'request') {
    send({ type: 'response', id: m.id, result: m.method === 'configure' ? { ok: true } : [] });
  } else if (m.type === 'runner' && m.msg?.type === 'call') {
    const { runId } = m;
    const { callId } = m.msg;
    for (const j of m.msg.arguments?.junk ?? []) send(fill(j, runId, callId));
    send({ type: 'runner', runId, msg: { type: 'result', callId, output: { content: [{ type: 'text', text: 'real result' }], isError: false }, mcpLog: [] } });
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
