import type { Command } from 'commander';

/** Registers `stepwise mcp`. */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      process.stderr.write('stepwise mcp: not built yet\n');
      process.exit(2);
    });
}
