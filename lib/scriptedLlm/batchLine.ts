import { completionBody, errorBody } from './completionBody';
import { replyOf, type Fault, type ScriptedRequest } from './script';
import type { ScriptState } from './scriptState';
import { DEFAULT_REASONING_TOKENS, isStrictReasoningModel, strictRefusalOf } from './strictReasoning';

/** What a batch line got: the status and body that go into its `response`, and whether it was a paid answer. */
export interface LineAnswer {
  status: number;
  body: unknown;
  answered: boolean;
  rule?: string;
  fault?: string;
}

/**
 * One batch line answered as the chat endpoint would answer it (the strict reasoning refusals, the rules and their
 * faults, the fallback), without the HTTP-only faults: a reset or malformed reply becomes a 500 in the error file,
 * `slow` answers normally, `truncated` answers with `finish_reason: "length"`. Queued faults (`inject`) are for chat
 * requests only.
 */
export async function answerLine(request: ScriptedRequest, state: ScriptState): Promise<LineAnswer> {
  const strict = isStrictReasoningModel(state.script, request.model);
  const refusal = strict ? strictRefusalOf(request) : undefined;
  if (refusal) return { status: 400, body: refusal, answered: false, fault: 'strict_reasoning' };
  const rule = state.takeRule(request);
  const fault = rule?.fault;
  const labels = { rule: rule?.name, fault: fault?.kind };
  if (fault && fault.kind !== 'slow' && fault.kind !== 'truncated') return { ...faultAnswer(fault), ...labels };
  const source = rule?.reply ?? state.script.fallback;
  if (source === undefined)
    return {
      status: 400,
      body: errorBody(
        'scripted-llm: no rule matched the request and the script has no fallback',
        'invalid_request_error',
      ),
      answered: false,
      ...labels,
    };
  const reply = await replyOf(source, request);
  const finishReason = fault?.kind === 'truncated' ? 'length' : reply.finishReason;
  const reasoningTokens =
    reply.reasoningTokens ??
    (strict ? (state.script.strictReasoning?.reasoningTokens ?? DEFAULT_REASONING_TOKENS) : undefined);
  const body = completionBody(request, { ...reply, finishReason, reasoningTokens }, reply.text, {
    reasoningField: state.script.reasoningField,
  });
  return { status: 200, body, answered: true, ...labels };
}

function faultAnswer(fault: Fault): Omit<LineAnswer, 'rule' | 'fault'> {
  switch (fault.kind) {
    case 'rate_limit':
      return {
        status: 429,
        body: errorBody('Rate limit reached (scripted)', 'rate_limit_error', 'rate_limit_exceeded'),
        answered: false,
      };
    case 'status':
      return {
        status: fault.status,
        body: errorBody(fault.message ?? `scripted error ${fault.status}`, 'invalid_request_error', fault.code ?? null),
        answered: false,
      };
    default:
      return {
        status: fault.kind === 'server_error' ? (fault.status ?? 500) : 500,
        body: errorBody('The server had an error (scripted)', 'server_error'),
        answered: false,
      };
  }
}
