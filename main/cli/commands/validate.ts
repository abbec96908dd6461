import type { Command } from 'commander';

/** Registers `stepwise validate`. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      process.stderr.write('stepwise validate: not built yet\n');
      process.exit(2);
    });
}
