/**
 * The readable live tree of `stepwise run`: one line per node as it opens and closes,
 * indented by depth, with its status word; streamed text is written as it arrives under the
 * node that streams it. Built on the shared StreamConsumer, so it shows exactly what a
 * window would (snapshots, late deltas and reopen attempts handled the same way).
 */
import { StreamConsumer } from '../../../shared/stream/consumer';
import type { StreamEnvelope } from '../../../shared/protocol/envelopes';
import { isTerminal, type ExecNode } from '../../../shared/protocol/nodes';
import { formatDuration, nodeDurationMs } from '../../../shared/protocol/duration';

const WORDS: Record<string, string> = {
  pending: 'pending',
  running: 'running',
  awaiting_input: 'awaiting input',
  completed: 'completed',
  error: 'error',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

/** Levels of nesting shown by indentation; deeper ones are numbered instead. */
export const MAX_INDENT_LEVELS = 40;

/** Prints a run's tree line by line as its envelopes arrive (see the file comment). */
export class LiveTreePrinter {
  private readonly consumer = new StreamConsumer();
  private readonly depth = new Map<string, number>();
  private readonly shownStatus = new Map<string, string>();
  /** Characters of each node's text / thinking already written. */
  private readonly written = new Map<string, { text: number; thinking: number }>();
  /** Node whose text is being written on the current line, if any. */
  private streaming: string | undefined;

  constructor(private readonly write: (s: string) => void) {}

  /**
   * Two spaces a level up to {@link MAX_INDENT_LEVELS}; deeper, that indent and the level
   * number (`[level 120] `). Without the cap a run nested 100,000 levels printed ~10¹⁰ spaces.
   */
  private indent(nodeId: string): string {
    const d = this.depth.get(nodeId) ?? 0;
    return d <= MAX_INDENT_LEVELS ? '  '.repeat(d) : `${'  '.repeat(MAX_INDENT_LEVELS)}[level ${d}] `;
  }

  private breakLine(): void {
    if (this.streaming !== undefined) {
      this.write('\n');
      this.streaming = undefined;
    }
  }

  private label(n: ExecNode): string {
    const parts = [n.kind, n.name];
    if (n.model && n.kind !== 'run') parts.push(`(${n.model})`);
    return parts.join(' ');
  }

  /** Feed one envelope. */
  apply(env: StreamEnvelope): void {
    this.consumer.apply(env);
    if (env.type === 'tree_update') {
      for (const n of env.nodes) this.node(n);
    } else if (env.type === 'node_update') {
      const node = this.consumer.get(env.nodeId)?.node;
      if (node) this.node(node); // a live status change shows as a line (awaiting input, running again)
    } else {
      this.flushText(env.nodeId);
    }
  }

  private node(n: ExecNode): void {
    if (!this.depth.has(n.id)) this.depth.set(n.id, n.parentId ? (this.depth.get(n.parentId) ?? 0) + 1 : 0);
    const live = this.consumer.get(n.id);
    const status = live?.status ?? n.status;
    if (this.shownStatus.get(n.id) === status) return;
    this.flushText(n.id);
    this.shownStatus.set(n.id, status);
    this.breakLine();
    let line = `${this.indent(n.id)}${status === 'running' ? '▸' : '•'} ${this.label(n)} — ${WORDS[status] ?? status}`;
    const ms = isTerminal(status) ? nodeDurationMs(n) : undefined;
    if (ms !== undefined) line += ` (${formatDuration(ms)})`;
    if (n.kind === 'tool' && status === 'awaiting_input' && n.input !== undefined) line += ` ${JSON.stringify(n.input)}`;
    if (n.error) line += `: ${n.error.message}`;
    this.write(`${line}\n`);
    // A tool's result is printed whether it succeeded or failed: an error result says why.
    if (n.kind === 'tool' && (n.status === 'completed' || n.status === 'error') && n.output) {
      const content = (n.output as { content?: { type: string; text?: string }[] }).content ?? [];
      const text = content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ');
      if (text) {
        const pad = `${this.indent(n.id)}    `;
        this.write(`${this.indent(n.id)}  → ${text.slice(0, 400).replace(/\n/g, `\n${pad}`)}\n`);
      }
    }
  }

  /** Write the part of a node's text not yet written (text only; thinking is summarised). */
  private flushText(nodeId: string): void {
    const live = this.consumer.get(nodeId);
    if (!live) return;
    const w = this.written.get(nodeId) ?? { text: 0, thinking: 0 };
    this.written.set(nodeId, w);
    if (live.thinking.length > w.thinking && w.thinking === 0) {
      this.breakLine();
      this.write(`${this.indent(nodeId)}  (thinking…)\n`);
    }
    w.thinking = live.thinking.length;
    if (live.text.length < w.text) {
      // A snapshot replaced the text; write it again from the start.
      w.text = 0;
    }
    if (live.text.length === w.text) return;
    if (this.streaming !== nodeId) {
      this.breakLine();
      this.write(`${this.indent(nodeId)}  `);
      this.streaming = nodeId;
    }
    const piece = live.text.slice(w.text);
    this.write(piece.replace(/\n/g, `\n${this.indent(nodeId)}  `));
    w.text = live.text.length;
  }

  /** The run ended with `status`. */
  end(status: string): void {
    this.breakLine();
    this.write(`run ${WORDS[status] ?? status}\n`);
  }
}
