import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TEMPLATE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'templates');

/** Template name plus version, e.g. `single.v1`. */
export type TemplateId = `${string}.v${number}`;

const cache = new Map<string, string>();

export function loadTemplate(id: TemplateId): string {
  let text = cache.get(id);
  if (text === undefined) {
    text = readFileSync(path.join(TEMPLATE_DIR, `${id}.txt`), 'utf8');
    cache.set(id, text);
  }
  return text;
}

/** Fills `{name}` placeholders in one pass, so values containing braces are never re-expanded. */
export function renderTemplate(id: TemplateId, vars: Record<string, string | number>): string {
  return fillTemplate(id, loadTemplate(id), vars);
}

export function fillTemplate(id: string, text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    if (!(name in vars)) throw new Error(`template ${id}: no value for {${name}}`);
    return String(vars[name]);
  });
}

export function builtinTemplatePath(id: TemplateId): string {
  return path.join(TEMPLATE_DIR, `${id}.txt`);
}
