import { answerPlaceholder } from '../grounding/placeholder';
import { requestedChartKind, requestedOutputs, savedRequested } from '../grounding/requestedOutput';
import { answersTurn } from './crossCheckPrompts';
import { readTurnToolCalls } from './debugStore';
import { appendEvents } from './eventLog';
import { turnQuestion } from './grounding';
import { conversationLayout, type ConversationLayout } from './layout';
import { placeholderInstruction, requestedOutputInstruction } from './prompts';
import type { CheckGroundingInput, RequestedOutputResult } from './steps';
import { readMessage, transcriptDir } from './transcript';

/** What the turn did not give: why (the `revise` step's text) and the request to the model. */
type Missing = { why: string; instruction: string } | undefined;

/**
 * Whether the turn gave what its question asks for: the chart or table it asks for was saved, and the answer holds no
 * placeholder where its value should be ("[insert the count here]"). When not, records a `revise` step saying so and
 * returns the request (the workflow asks once). The second program's calls do not count (it saves nothing). A retried
 * check writes its step once (the event's key).
 */
export async function checkRequestedOutput(input: CheckGroundingInput): Promise<RequestedOutputResult> {
  const layout = conversationLayout(input.dir);
  const missing = (await missingOutput(layout, input.turnId)) ?? (await placeholderAnswer(layout, input));
  if (!missing) return {};
  const data = {
    stepId: `${input.turnId}-requested-output`,
    kind: 'revise' as const,
    text: missing.why,
    agent: input.answer.agent,
  };
  await appendEvents(layout, [{ type: 'step', turnId: input.turnId, key: `${input.turnId}:requested-output`, data }]);
  return { instruction: missing.instruction };
}

/** The chart or table (or both) the question asks for, those the turn saved none of. */
async function missingOutput(layout: ConversationLayout, turnId: string): Promise<Missing> {
  const question = await turnQuestion(layout, turnId);
  const asked = requestedOutputs(question);
  if (!asked.length) return undefined;
  const calls = await readTurnToolCalls(layout, turnId, answersTurn);
  const saved = calls.flatMap((c) => savedTypes(c.result));
  const missing = asked.filter((output) => !savedRequested(output, saved));
  if (!missing.length) return undefined;
  const what = missing.map((output) => `a ${output}`).join(' and ');
  return {
    why: `The question asks for ${what} and this turn saved none: the model is asked once to save ${missing.length > 1 ? 'them' : 'it'}.`,
    instruction: missing
      .map((output) =>
        requestedOutputInstruction(output, output === 'chart' ? requestedChartKind(question) : undefined),
      )
      .join('\n'),
  };
}

/** A placeholder the answer gives where its value should be. */
async function placeholderAnswer(layout: ConversationLayout, input: CheckGroundingInput): Promise<Missing> {
  const reply = await readMessage(transcriptDir(layout, input.turnId, input.answer.agent), input.answer.index);
  const placeholder = answerPlaceholder(reply?.content ?? '');
  if (!placeholder) return undefined;
  return {
    why: `The answer has a placeholder (${placeholder}) where its value should be: the model is asked once to compute and print it.`,
    instruction: placeholderInstruction(placeholder),
  };
}

/** The manifest types of the outputs a tool call saved. */
function savedTypes(result: unknown): string[] {
  const saved = (result as { visualizations?: unknown } | null | undefined)?.visualizations;
  return Array.isArray(saved)
    ? saved.flatMap((v) => {
        const type = (v as { type?: unknown } | null)?.type;
        return typeof type === 'string' ? [type] : [];
      })
    : [];
}
