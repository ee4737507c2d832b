import type { Command } from 'commander';

/** Adds a module's commands to the program. */
export type RegisterCommands = (program: Command) => void;

/** A module of cli/commands/ and the command names it registers (test/cli/commandModules.test.ts checks the names). */
export interface CommandModule {
  commands: string[];
  load(): Promise<RegisterCommands>;
}

/** Every command module, in the order `sheetbench --help` lists them. */
export const COMMAND_MODULES: CommandModule[] = [
  {
    commands: ['run', 'worker', 'status', 'resume'],
    load: async () => (await import('./commands/run')).registerRunCommands,
  },
  { commands: ['sandbox'], load: async () => (await import('./commands/sandbox')).registerSandboxCommand },
  { commands: ['eval', 'health'], load: async () => (await import('./commands/eval')).registerEvalCommands },
  { commands: ['recalc'], load: async () => (await import('./commands/recalc')).registerRecalcCommand },
  { commands: ['scripted-llm'], load: async () => (await import('./commands/scriptedLlm')).registerScriptedLlmCommand },
  { commands: ['report'], load: async () => (await import('./commands/report')).registerReportCommand },
  { commands: ['rerun'], load: async () => (await import('./commands/rerun')).registerRerunCommand },
  {
    commands: ['pause', 'cancel', 'budget', 'retry'],
    load: async () => (await import('./commands/control')).registerControlCommands,
  },
  { commands: ['serve', 'ask'], load: async () => (await import('./commands/analysis')).registerAnalysisCommands },
  { commands: ['runs'], load: async () => (await import('./commands/runs')).registerRunsCommand },
  { commands: ['rejudge'], load: async () => (await import('./commands/rejudge')).registerRejudgeCommand },
  { commands: ['auth'], load: async () => (await import('./commands/auth')).registerAuthCommands },
  { commands: ['compare'], load: async () => (await import('./commands/compare')).registerCompareCommand },
  { commands: ['show'], load: async () => (await import('./commands/show')).registerShowCommand },
  { commands: ['doctor'], load: async () => (await import('./commands/doctor')).registerDoctorCommand },
  { commands: ['config'], load: async () => (await import('./commands/config')).registerConfigCommands },
  { commands: ['prebuild'], load: async () => (await import('./commands/prebuild')).registerPrebuildCommand },
];

/**
 * The modules a command line needs: only the named command's, so `sheetbench compare` does not load what `run` needs
 * (each module's imports cost start-up CPU); every module for anything else (help, an unknown or misspelt name, which
 * commander answers from the full list).
 */
export async function registrationsFor(args: string[]): Promise<RegisterCommands[]> {
  const name = args[0];
  const named = name && !name.startsWith('-') ? COMMAND_MODULES.find((m) => m.commands.includes(name)) : undefined;
  return Promise.all((named ? [named] : COMMAND_MODULES).map((m) => m.load()));
}
