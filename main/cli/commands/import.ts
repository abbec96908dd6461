import type { Command } from 'commander';

/** Registers `stepwise import`. */
export function registerImport(program: Command): void {
  program
    .command('import')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      process.stderr.write('stepwise import: not built yet\n');
      process.exit(2);
    });
}
