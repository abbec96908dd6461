import type { Command } from 'commander';

/** Registers `stepwise serve`. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      process.stderr.write('stepwise serve: not built yet\n');
      process.exit(2);
    });
}
