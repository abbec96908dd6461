import type { Command } from 'commander';

/** Registers `stepwise run`. */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      process.stderr.write('stepwise run: not built yet\n');
      process.exit(2);
    });
}
