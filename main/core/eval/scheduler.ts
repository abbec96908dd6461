/**
 * Where a batch's cases run. The batch hands each case × variant to a scheduler and gets its
 * result back; the default is a local pool on the batch's own host core (each case's run in a
 * runner process of its own: reused from case to case, or fresh, see CaseIsolation);
 * `--queue redis://…` sends them to workers on any machine through BullMQ (redis-scheduler.ts).
 */
import { batchPool, DEFAULT_ISOLATION, runCase, type CaseHost, type CaseIsolation, type CaseJob, type CaseRunOutput } from './case-run';

/** Runs cases of batches. */
export interface CaseScheduler {
  /** For the batch file and the CLI: `local` or the queue's address (without a password). */
  readonly name: string;
  /**
   * Runs one case, its files under `dir` (the batch folder). Resolves with its result in every
   * case; a case that could not run has status `error`. After `signal` aborts, a case not yet
   * finished resolves `error` and is not recorded (a resumed batch runs it again).
   */
  run(job: CaseJob, dir: string, signal: AbortSignal): Promise<CaseRunOutput>;
  close(): Promise<void>;
}

/**
 * Cases on this machine, through `core`, in runner processes reused across a batch's cases or
 * fresh per case; each case's thread and run stay in memory until the batch writes them into
 * its case store (case-store.ts).
 */
export class LocalScheduler implements CaseScheduler {
  readonly name = 'local';
  private readonly batches = new Set<string>();

  constructor(
    private readonly core: CaseHost,
    readonly isolation: CaseIsolation = DEFAULT_ISOLATION,
  ) {}

  run(job: CaseJob, dir: string, signal: AbortSignal): Promise<CaseRunOutput> {
    this.batches.add(job.batchId);
    return runCase(this.core, job, dir, 'local', signal, this.isolation, 'memory');
  }

  /** Stops the batches' pooled runner processes. */
  async close(): Promise<void> {
    for (const id of this.batches) this.core.supervisor.releasePool(batchPool(id));
    this.batches.clear();
  }
}
