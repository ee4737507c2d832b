import { requestedChartKind, requestedOutput, savedRequested } from '../grounding/requestedOutput';
import { answersTurn } from './crossCheckPrompts';
import { readTurnToolCalls } from './debugStore';
import { appendEvents } from './eventLog';
import { turnQuestion } from './grounding';
import { conversationLayout } from './layout';
import { requestedOutputInstruction } from './prompts';
import type { CheckGroundingInput, RequestedOutputResult } from './steps';

/**
 * Whether the turn saved the chart or table its question asks for; when it saved none, records a `revise` step saying
 * so and returns the request to save it (the workflow asks once). The second program's calls do not count (it saves
 * nothing). A retried check writes its step once (the event's key).
 */
export async function checkRequestedOutput(input: CheckGroundingInput): Promise<RequestedOutputResult> {
  const layout = conversationLayout(input.dir);
  const question = await turnQuestion(layout, input.turnId);
  const asked = requestedOutput(question);
  if (!asked) return {};
  const calls = await readTurnToolCalls(layout, input.turnId, answersTurn);
  if (
    savedRequested(
      asked,
      calls.flatMap((c) => savedTypes(c.result)),
    )
  )
    return {};
  const data = {
    stepId: `${input.turnId}-requested-output`,
    kind: 'revise' as const,
    text: `The question asks for a ${asked} and this turn saved none: the model is asked once to save it.`,
    agent: input.answer.agent,
  };
  await appendEvents(layout, [{ type: 'step', turnId: input.turnId, key: `${input.turnId}:requested-output`, data }]);
  return {
    instruction: requestedOutputInstruction(asked, asked === 'chart' ? requestedChartKind(question) : undefined),
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
