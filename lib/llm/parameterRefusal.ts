import { APIError } from 'openai';
import type { ReasoningEffort } from 'openai/resources/shared';

/** The request fields a refusal may concern and this layer knows how to change. */
export interface SamplingFields {
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  reasoning_effort?: NonNullable<ReasoningEffort>;
}

/**
 * A 400 naming one request field the model does not take: OpenAI answers `unsupported_parameter` for `max_tokens`
 * on reasoning models and `unsupported_value` for a temperature other than the default (param names the field).
 */
export interface ParameterRefusal {
  param: keyof SamplingFields;
  code: string;
  message: string;
}

const CODES = new Set(['unsupported_parameter', 'unsupported_value']);
const FIELDS: ReadonlySet<string> = new Set([
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'reasoning_effort',
]);

export function parameterRefusalOf(err: unknown): ParameterRefusal | undefined {
  if (!(err instanceof APIError) || err.status !== 400 || typeof err.code !== 'string' || !CODES.has(err.code))
    return undefined;
  const param = err.param ?? /'(\w+)'/.exec(err.message)?.[1];
  if (!param || !FIELDS.has(param)) return undefined;
  return { param: param as keyof SamplingFields, code: err.code, message: err.message };
}

/** The request changed so the refused field goes: the token cap moves to the other field, the rest is left out. */
export function withoutRefused(fields: SamplingFields, refusal: ParameterRefusal): SamplingFields | undefined {
  if (fields[refusal.param] === undefined) return undefined;
  const { [refusal.param]: refused, ...rest } = fields;
  if (refusal.param === 'max_tokens') return { ...rest, max_completion_tokens: refused as number };
  if (refusal.param === 'max_completion_tokens') return { ...rest, max_tokens: refused as number };
  return rest;
}

/** How a retried call's request was changed, as recorded with its reply. */
export function describeAdjustment(refusal: ParameterRefusal): string {
  const change =
    refusal.param === 'max_tokens'
      ? 'sent as max_completion_tokens'
      : refusal.param === 'max_completion_tokens'
        ? 'sent as max_tokens'
        : 'left out';
  return `${refusal.param} ${change} after the provider refused it (${refusal.code}: ${refusal.message})`;
}
