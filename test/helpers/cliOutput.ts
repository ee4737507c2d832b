import { Command } from 'commander';
import { vi } from 'vitest';

/** What a CLI command prints to stdout, run in process: `register` adds the command(s) to a fresh program. */
export async function cliOutput(register: (program: Command) => void, args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  register(program);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['node', 'sheetbench', ...args]);
    return out.mock.calls.map((c) => String(c[0])).join('');
  } finally {
    out.mockRestore();
  }
}
