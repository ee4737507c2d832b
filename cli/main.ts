import { Command } from 'commander';
import { registrationsFor } from './commandModules';
import { exitCodeOf, describeError } from './exitCodes';

const program = new Command()
  .name('sheetbench')
  .description('Durable LLM spreadsheet agents and benchmarks on Temporal')
  .showHelpAfterError();

for (const register of await registrationsFor(process.argv.slice(2))) register(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`sheetbench: ${describeError(err)}\n`);
  process.exit(exitCodeOf(err));
});
