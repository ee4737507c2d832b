/** Test entry: the scripted-llm command alone (cli/main.ts also loads every other command). */
import { Command } from 'commander';
import { registerScriptedLlmCommand } from '../../cli/commands/scriptedLlm';
import { describeError, exitCodeOf } from '../../cli/exitCodes';

const program = new Command().name('sheetbench');
registerScriptedLlmCommand(program);
program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`sheetbench: ${describeError(err)}\n`);
  process.exit(exitCodeOf(err));
});
