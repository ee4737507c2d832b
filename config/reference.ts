import { z } from 'zod';
import { configSchema } from './schema';
import { LEGACY_KEYS } from './legacyKeys';

/** One setting as the reference shows it. `description` is absent only when the schema lacks one (a test fails). */
export interface FieldDoc {
  path: string;
  type: string;
  default?: string;
  description?: string;
  /** A group of settings (e.g. `temporal.tls`), documented as a row before its fields. */
  group: boolean;
}

export interface SectionDoc {
  name: string;
  description?: string;
  fields: FieldDoc[];
}

type AnySchema = z.core.$ZodType;
type Def = { type: string; innerType?: AnySchema; in?: AnySchema; shape?: Record<string, AnySchema> };
type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  items?: JsonSchema;
  additionalProperties?: JsonSchema;
  propertyNames?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
};

const WRAPPERS = new Set(['default', 'optional', 'nullable', 'prefault']);
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function defOf(schema: AnySchema): Def {
  return schema._zod.def;
}

/** The description set anywhere on a field's wrappers (`.describe()` before or after `.default()`). */
function descriptionOf(schema: AnySchema): string | undefined {
  for (let s: AnySchema | undefined = schema; s; s = defOf(s).innerType) {
    const text = z.globalRegistry.get(s)?.description;
    if (text) return text;
  }
  return undefined;
}

function unwrap(schema: AnySchema): AnySchema {
  let s = schema;
  while (WRAPPERS.has(defOf(s).type) && defOf(s).innerType) s = defOf(s).innerType!;
  return s;
}

function defaultOf(schema: AnySchema): string | undefined {
  for (let s: AnySchema | undefined = schema; s; s = defOf(s).innerType) {
    const def = s._zod.def as unknown as { type: string; defaultValue?: unknown };
    if (def.type === 'default') return JSON.stringify(def.defaultValue);
  }
  return undefined;
}

/** A compact type: `integer > 0`, `'a' \| 'b'`, `{string: integer > 0}`, `string[]`. */
function typeText(js: JsonSchema): string {
  if (js.enum) return js.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (js.anyOf) return js.anyOf.map(typeText).join(' \\| ');
  if (Array.isArray(js.type)) return js.type.join(' \\| ');
  if (js.type === 'array') return `${typeText(js.items ?? {})}[]`;
  if (js.type === 'object' && js.properties)
    return `{${Object.entries(js.properties)
      .map(([k, v]) => `${k}: ${typeText(v)}`)
      .join(', ')}}`;
  if (js.type === 'object' && js.additionalProperties)
    return `{${typeText(js.propertyNames ?? { type: 'string' })}: ${typeText(js.additionalProperties)}}`;
  const bounds = [
    js.exclusiveMinimum !== undefined ? `> ${js.exclusiveMinimum}` : '',
    js.minimum !== undefined && js.minimum !== -MAX_SAFE ? `≥ ${js.minimum}` : '',
    js.maximum !== undefined && js.maximum !== MAX_SAFE ? `≤ ${js.maximum}` : '',
  ].filter(Boolean);
  const base = js.format === 'uri' ? 'URL' : (js.type ?? 'any');
  return [base, ...bounds].join(' ');
}

function fieldsOf(shape: Record<string, AnySchema>, prefix: string): FieldDoc[] {
  return Object.entries(shape).flatMap(([key, schema]) => {
    const inner = unwrap(schema);
    const path = `${prefix}${key}`;
    const common = { path, default: defaultOf(schema), description: descriptionOf(schema) };
    const nested = defOf(inner).type === 'object' ? defOf(inner).shape : undefined;
    if (nested)
      return [{ ...common, default: undefined, type: 'object', group: true }, ...fieldsOf(nested, `${path}.`)];
    const js = z.toJSONSchema(inner, { unrepresentable: 'any' }) as JsonSchema;
    return [{ ...common, type: typeText(js), group: false }];
  });
}

/** Every section of the config and its fields, from the schema (the single source of their descriptions). */
export function configReference(): SectionDoc[] {
  const root = defOf(unwrap(configSchema)).shape ?? {};
  return Object.entries(root).map(([name, schema]) => ({
    name,
    description: descriptionOf(schema),
    fields: fieldsOf(defOf(unwrap(schema)).shape ?? {}, ''),
  }));
}

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function sectionMarkdown(s: SectionDoc): string[] {
  const rows = s.fields.map((f) => {
    const defaultText = f.default === undefined ? '' : `\`${cell(f.default)}\``;
    return `| \`${f.path}\` | ${f.type} | ${defaultText} | ${cell(f.description)} |`;
  });
  return [
    `### \`${s.name}\``,
    '',
    cell(s.description),
    '',
    '| key | type | default | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ];
}

function legacyMarkdown(): string[] {
  const rows = LEGACY_KEYS.map((k) => `| \`${k.from}\` | \`${k.to}\`${k.how === 'merge' ? ' (entries merged)' : ''} |`);
  return [
    '### Keys of older versions',
    '',
    'Read under their new names with a one-line warning; a file setting an old key and its new key to different values',
    'is refused, naming both.',
    '',
    '| old key | new key |',
    '|---|---|',
    ...rows,
    '',
  ];
}

/** The markdown reference `sheetbench config docs` prints and config/README.md holds between its markers. */
export function configReferenceMarkdown(): string {
  const lines = ['## Reference (generated from config/ by `sheetbench config docs`; do not edit by hand)', ''];
  for (const section of configReference()) lines.push(...sectionMarkdown(section));
  lines.push(...legacyMarkdown());
  return lines.join('\n');
}

export const REFERENCE_START = '<!-- config reference: start -->';
export const REFERENCE_END = '<!-- config reference: end -->';
