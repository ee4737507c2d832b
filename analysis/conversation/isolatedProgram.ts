import { SECOND_PROGRAM_AGENT } from './crossCheckPrompts';

/**
 * The arguments a tool call runs with. A second program (the cross-check's) runs its Python in a namespace of its own
 * within the conversation's kernel: it cannot read the variables the analysis defined (no sight of the first program)
 * nor overwrite them for later turns. The model's code is recorded as written; only what runs is wrapped.
 */
export function runArguments(agent: string, tool: string, args: unknown): unknown {
  if (agent !== SECOND_PROGRAM_AGENT || tool !== 'python_execute') return args;
  const code = (args as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return args;
  return { ...(args as object), code: isolatedPython(code) };
}

/** `code` run by exec in fresh globals (a JSON string literal is a valid Python string literal). */
export function isolatedPython(code: string): string {
  return `exec(compile(${JSON.stringify(code)}, '<second-program>', 'exec'), {'__name__': '__main__'})`;
}
