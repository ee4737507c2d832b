import type { Command } from 'commander';
import { configReferenceMarkdown } from '../../config/reference';

/** `sheetbench config docs`: the configuration reference, generated from the schema's descriptions (markdown). */
export function registerConfigCommands(program: Command): void {
  const config = program.command('config').description('the configuration (sheetbench.config.json)');
  config
    .command('docs')
    .description(
      'print the reference of every config section and field, with types, defaults and old key names (markdown)',
    )
    .action(() => {
      process.stdout.write(`${configReferenceMarkdown()}\n`);
    });
}
