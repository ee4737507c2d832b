import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_MODULES, registrationsFor } from '../../cli/commandModules';

describe('CLI command modules (only the named command is loaded)', () => {
  it('each module registers exactly the commands the table names it for (a new command is added to the table)', async () => {
    for (const module of COMMAND_MODULES) {
      const program = new Command();
      (await module.load())(program);
      expect(program.commands.map((c) => c.name())).toEqual(module.commands);
    }
  });

  it('no command name is claimed by two modules', () => {
    const names = COMMAND_MODULES.flatMap((m) => m.commands);
    expect(new Set(names).size).toBe(names.length);
  });

  it('a named command loads its module only; help, options first or an unknown name load them all', async () => {
    const registered = async (args: string[]) => {
      const program = new Command();
      for (const register of await registrationsFor(args)) register(program);
      return program.commands.map((c) => c.name());
    };
    expect(await registered(['compare', 'a', 'b'])).toEqual(['compare']);
    expect(await registered(['status', 'run-1'])).toEqual(['run', 'worker', 'status', 'resume']);
    const all = COMMAND_MODULES.flatMap((m) => m.commands);
    expect(await registered([])).toEqual(all);
    expect(await registered(['--help'])).toEqual(all);
    expect(await registered(['help', 'run'])).toEqual(all);
    expect(await registered(['comapre'])).toEqual(all); // commander suggests "compare" from the full list
  });
});
