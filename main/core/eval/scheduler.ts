/**
 * Where a batch's cases run. The batch hands each case × variant to a scheduler and gets its
 * result back; the default is a local pool on the batch's own host core (each case's run in
 * its own runner process, as every run); `--queue redis://…` sends them to workers on any
 * machine through BullMQ (redis-scheduler.ts).
 */
import { runCase, type CaseHost, type CaseJob, type CaseRunOutput } from './case-run';

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

/** Cases on this machine, through `core` (each run in its own runner process). */
export class LocalScheduler implements CaseScheduler {
  readonly name = 'local';
  constructor(private readonly core: CaseHost) {}

  run(job: CaseJob, dir: string, signal: AbortSignal): Promise<CaseRunOutput> {
    return runCase(this.core, job, dir, 'local', signal);
  }

  async close(): Promise<void> {}
}
