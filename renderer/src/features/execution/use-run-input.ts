/** Sending the user's answer to a tool node waiting in `awaiting_input` (`run.input`). */
import { useState } from 'react';
import { useApp } from '../../state/context';

/**
 * `answer(value)` sends `value` for node `nodeId` of run `runId`; `sent` is true from then on,
 * unless sending failed (the failure is shown, and the user can answer again).
 */
export function useRunInput(runId: string, nodeId: string): { sent: boolean; answer: (value: unknown) => Promise<void> } {
  const app = useApp();
  const [sent, setSent] = useState(false);
  const answer = async (value: unknown) => {
    setSent(true);
    try {
      await app.host.call('run.input', { runId, nodeId, value });
    } catch (err) {
      setSent(false);
      app.fail('Could not send the answer', err, 'The run may have ended; run the tool again.');
    }
  };
  return { sent, answer };
}
