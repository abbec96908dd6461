/**
 * The streaming benchmark's text, shared by the driver (which sends it) and the client (which
 * checks what it assembled): deterministic tokens of a few characters, like a model's.
 */
const WORDS = ['the ', 'model ', 'streams ', 'a ', 'token ', 'at ', 'its ', 'rate, ', 'and ', 'each ', 'one ', 'arrives ', 'in ', 'order. ', 'Then ', 'it ', 'ends.\n'];

/** Token `i` of node number `k`. */
export function tokenAt(k: number, i: number): string {
  return WORDS[(i * 7 + k * 3) % WORDS.length];
}

/** The full text node `k` streams in `count` tokens, and each token's end offset in it. */
export function nodeText(k: number, count: number): { text: string; ends: Uint32Array } {
  const ends = new Uint32Array(count);
  let text = '';
  for (let i = 0; i < count; i++) {
    text += tokenAt(k, i);
    ends[i] = text.length;
  }
  return { text, ends };
}

/** What the driver process is told to do (env `STEPWISE_BENCH_STREAM`, JSON). */
export interface DriverConfig {
  /** Parallel llm nodes. */
  nodes: number;
  /** Tokens per node. */
  tokens: number;
  /** Tokens per second per node; 0 = as fast as the process can. */
  rate: number;
  /** `delta`: llm_delta through the runner's emitter; `snapshot`: a full-text tree_update per token (baseline). */
  mode: 'delta' | 'snapshot';
  /** Where the driver writes each token's send time (Float64, epoch ms, node-major). */
  timesFile: string;
}
