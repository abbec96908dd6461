/**
 * What a run reuses from an earlier run (docs/architecture.md#branches-and-time-travel): the
 * recorded model calls it plays back instead of calling a provider, and the recorded results of
 * the tool calls those calls made, used instead of running the tools. Turns count the loop's own
 * model calls from 0; calls nested under tools are never reused (their tools do not run).
 */
import type { ToolOutput } from '../../shared/thread/messages';
import type { Provider } from '../providers/types';

export interface RecordedCalls {
  /** The run the recordings come from. */
  runId: string;
  /** A provider that plays turn `turn`'s recorded call, or undefined when that turn runs live. */
  call(turn: number): Provider | undefined;
  /** The recorded result of tool call `toolCallId` made by turn `turn`, when it is reused. */
  toolOutput(turn: number, toolCallId: string): ToolOutput | undefined;
}
