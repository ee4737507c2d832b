import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Fault, Script, ScriptRule } from './script';

/** The JSON form of a script (for the CLI and reproducible runs): regexes are strings, replies are text. */
const regexSchema = z.string().refine(isValidRegex, { message: 'not a valid regular expression' });

export const faultSchema: z.ZodType<Fault> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('rate_limit'),
    retryAfterSeconds: z.number().nonnegative().optional(),
    retryAfterMs: z.number().nonnegative().optional(),
  }),
  z.object({ kind: z.literal('server_error'), status: z.number().int().min(500).max(599).optional() }),
  z.object({
    kind: z.literal('status'),
    status: z.number().int().min(400).max(599),
    message: z.string().optional(),
    code: z.string().optional(),
  }),
  z.object({ kind: z.literal('slow'), delayMs: z.number().nonnegative() }),
  z.object({ kind: z.literal('truncated') }),
  z.object({ kind: z.literal('malformed'), variant: z.enum(['invalid_json', 'empty_choices', 'null_content']) }),
  z.object({ kind: z.literal('reset') }),
]);

const ruleSchema = z
  .object({
    name: z.string().optional(),
    match: z
      .object({
        lastUser: regexSchema.optional(),
        anyMessage: regexSchema.optional(),
        callKey: regexSchema.optional(),
        model: z.string().optional(),
      })
      .strict()
      .optional(),
    reply: z.string().optional(),
    fault: faultSchema.optional(),
    delayMs: z.number().nonnegative().optional(),
    times: z.number().int().positive().optional(),
  })
  .strict()
  .refine((r) => r.reply !== undefined || r.fault !== undefined, { message: 'a rule needs a reply or a fault' });

export const scriptFileSchema = z
  .object({
    rules: z.array(ruleSchema).default([]),
    fallback: z.string().optional(),
    latencyMs: z.number().nonnegative().optional(),
    /** A regex over model names answered as OpenAI's reasoning models (strictReasoning.ts). */
    strictReasoning: z
      .object({ models: regexSchema, reasoningTokens: z.number().int().nonnegative().optional() })
      .strict()
      .optional(),
    reasoningField: z.enum(['reasoning_content', 'reasoning']).optional(),
  })
  .strict();

export type ScriptFile = z.infer<typeof scriptFileSchema>;

export class ScriptFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptFileError';
  }
}

/** Reads and validates a script file; every problem is reported with its path in the file. */
export async function loadScriptFile(file: string): Promise<Script> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new ScriptFileError(`cannot read script ${file}: ${(err as Error).message}`);
  }
  return scriptFromJson(raw, file);
}

export function scriptFromJson(raw: unknown, source = 'script'): Script {
  const parsed = scriptFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ScriptFileError(`invalid script ${source}: ${problems}`);
  }
  const { rules, fallback, latencyMs, strictReasoning, reasoningField } = parsed.data;
  return {
    rules: rules.map(ruleFromJson),
    fallback,
    latencyMs,
    ...(strictReasoning ? { strictReasoning: { ...strictReasoning, models: new RegExp(strictReasoning.models) } } : {}),
    ...(reasoningField ? { reasoningField } : {}),
  };
}

function ruleFromJson(rule: ScriptFile['rules'][number]): ScriptRule {
  const { match, ...rest } = rule;
  if (!match) return rest;
  return {
    ...rest,
    match: {
      model: match.model,
      lastUser: toRegex(match.lastUser),
      anyMessage: toRegex(match.anyMessage),
      callKey: toRegex(match.callKey),
    },
  };
}

function toRegex(source: string | undefined): RegExp | undefined {
  return source === undefined ? undefined : new RegExp(source, 's');
}

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
