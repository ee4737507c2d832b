import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The fixed Python programs of SheetCopilot (observation, answer inspection), read once. */
const programs = new Map<string, string>();

function programText(name: 'observation' | 'inspect_answer'): string {
  let text = programs.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(HERE, `${name}.py`), 'utf8');
    programs.set(name, text);
  }
  return text;
}

/** A program preceded by its inputs as Python literals (JSON is valid Python for strings, numbers, lists, null→None). */
export function programWithInputs(name: 'observation' | 'inspect_answer', inputs: Record<string, unknown>): string {
  const lines = Object.entries(inputs).map(([k, v]) => `${k} = ${pythonLiteral(v)}`);
  return `${lines.join('\n')}\n${programText(name)}`;
}

function pythonLiteral(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  // json.loads keeps every string byte-exact (non-ASCII sheet names, NBSP) and maps null to None.
  return `__import__('json').loads(${JSON.stringify(JSON.stringify(v))})`;
}
