/**
 * `stepwise` command line. Exit codes: 0 ok, 1 the work failed (run error, tool error),
 * 2 bad input (message on stderr), 3 connection failure (mcp).
 */
import { Command, CommanderError } from 'commander';
import { watchWrapper } from './parent-watch';
import { registerValidate } from './commands/validate';
import { registerImport } from './commands/import';
import { registerExport } from './commands/export';
import { registerRun } from './commands/run';
import { registerRender } from './commands/render';
import { registerServe } from './commands/serve';
import { registerMcp } from './commands/mcp';
import { registerEval } from './commands/eval';
import { registerWorker } from './commands/worker';
import { registerBranch } from './commands/branch';
import { terminalText } from './terminal-text';

const program = new Command('stepwise')
  .description('Stepwise: build and debug LLM agents one step at a time.')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(terminalText(s)) });

registerValidate(program);
registerImport(program);
registerExport(program);
registerRun(program);
registerRender(program);
registerServe(program);
registerMcp(program);
registerEval(program);
registerWorker(program);
registerBranch(program);

// Started by bin/stepwise.mjs: stop when it is killed without passing a signal on.
watchWrapper(process.env.STEPWISE_WRAPPER_PID);

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CommanderError) {
    process.exit(err.exitCode === 0 ? 0 : 2);
  }
  process.stderr.write(`stepwise: ${terminalText(err instanceof Error ? err.message : String(err))}\n`);
  process.exit(2);
});
