import { SECOND_PROGRAM_AGENT } from './crossCheckPrompts';

/**
 * The arguments a tool call runs with. A second program (the cross-check's) runs its Python in a namespace of its own
 * within the conversation's kernel: it cannot read the variables the analysis defined (no sight of the first program)
 * nor overwrite them for later turns, and its calls of the output helpers (save_table, save_chart, …) write nothing into
 * the turn's outputs. The model's code is recorded as written; only what runs is wrapped.
 */
export function runArguments(agent: string, tool: string, args: unknown): unknown {
  if (agent !== SECOND_PROGRAM_AGENT || tool !== 'python_execute') return args;
  const code = (args as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return args;
  return { ...(args as object), code: isolatedPython(code) };
}

/** The kernel's helpers that write outputs: in a second program they do nothing (its result is what it prints). */
const OUTPUT_HELPERS = ['save_table', 'save_chart', 'save_vega_lite', 'save_image'];

/** `code` run by exec in fresh globals (a JSON string literal is a valid Python string literal). */
export function isolatedPython(code: string): string {
  const helpers = OUTPUT_HELPERS.map((h) => `'${h}': (lambda *a, **k: None)`).join(', ');
  return `exec(compile(${JSON.stringify(code)}, '<second-program>', 'exec'), {'__name__': '__main__', ${helpers}})`;
}
