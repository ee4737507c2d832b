import { Command } from 'commander';
import { registerRunCommands } from './commands/run';
import { registerSandboxCommand } from './commands/sandbox';
import { registerEvalCommands } from './commands/eval';
import { registerRecalcCommand } from './commands/recalc';
import { registerScriptedLlmCommand } from './commands/scriptedLlm';
import { registerReportCommand } from './commands/report';
import { registerRerunCommand } from './commands/rerun';
import { registerControlCommands } from './commands/control';
import { registerAnalysisCommands } from './commands/analysis';
import { registerRunsCommand } from './commands/runs';
import { registerRejudgeCommand } from './commands/rejudge';
import { registerAuthCommands } from './commands/auth';
import { registerCompareCommand } from './commands/compare';
import { registerShowCommand } from './commands/show';
import { registerDoctorCommand } from './commands/doctor';
import { registerConfigCommands } from './commands/config';
import { exitCodeOf, describeError } from './exitCodes';

const program = new Command()
  .name('sheetbench')
  .description('Durable LLM spreadsheet agents and benchmarks on Temporal')
  .showHelpAfterError();

registerRunCommands(program);
registerSandboxCommand(program);
registerEvalCommands(program);
registerRecalcCommand(program);
registerScriptedLlmCommand(program);
registerReportCommand(program);
registerRerunCommand(program);
registerControlCommands(program);
registerAnalysisCommands(program);
registerRunsCommand(program);
registerRejudgeCommand(program);
registerAuthCommands(program);
registerCompareCommand(program);
registerShowCommand(program);
registerDoctorCommand(program);
registerConfigCommands(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`sheetbench: ${describeError(err)}\n`);
  process.exit(exitCodeOf(err));
});
