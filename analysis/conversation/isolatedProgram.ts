import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECOND_PROGRAM_AGENT } from './crossCheckPrompts';

/**
 * The arguments a tool call runs with. A second program (the cross-check's) runs its Python in a namespace of its own
 * within the conversation's kernel: it cannot read the variables the analysis defined (no sight of the first program)
 * nor overwrite them for later turns, and it computes only: its calls of the output helpers (save_table, save_chart, …)
 * write nothing into the turn's outputs, and the figures it plots are neither saved nor kept (no second chart). Its
 * errors name its own failing line (analysis/python/second_program.py). The model's code is recorded as written; only
 * what runs is wrapped.
 */
export function runArguments(agent: string, tool: string, args: unknown): unknown {
  if (agent !== SECOND_PROGRAM_AGENT || tool !== 'python_execute') return args;
  const code = (args as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return args;
  return { ...(args as object), code: isolatedPython(code) };
}

/** The kernel's helpers that write outputs: in a second program they do nothing (its result is what it prints). */
const OUTPUT_HELPERS = ['save_table', 'save_chart', 'save_vega_lite', 'save_image'];

const RUNNER_SOURCE = readFileSync(
  resolve(dirname(fileURLToPath(import.meta.url)), '../python/second_program.py'),
  'utf8',
);

/**
 * `code` run by second_program.py's `run` (JSON string literals are valid Python string literals); the exception it
 * returns is raised at the cell's level, so the kernel reports it like any cell's, from the program's own frames. The
 * cell leaves no name behind in the analysis's namespace.
 */
export function isolatedPython(code: string): string {
  return [
    `_sb_second = {'__name__': 'sheetbench_second_program'}`,
    `exec(compile(${JSON.stringify(RUNNER_SOURCE)}, 'second_program.py', 'exec'), _sb_second)`,
    `_sb_second = _sb_second['run'](${JSON.stringify(code)}, ${JSON.stringify(OUTPUT_HELPERS)})`,
    'try:',
    '    if _sb_second is not None:',
    '        raise _sb_second',
    'finally:',
    '    del _sb_second',
  ].join('\n');
}
