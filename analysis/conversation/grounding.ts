import path from 'node:path';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { groundAnswer } from '../grounding/ground';
import { turnSources } from '../grounding/sources';
import type { Grounding } from '../grounding/types';
import type { DebugStep } from './debug';
import { readTurnToolCalls } from './debugStore';
import { appendEvents, readEvents } from './eventLog';
import type { NewEvent } from './events';
import { conversationLayout, type ConversationLayout } from './layout';
import type { CheckGroundingInput, CheckGroundingResult } from './steps';
import { readMessage, transcriptDir } from './transcript';

/** Grounding records sort after every step of their turn in the debug view. */
const GROUNDING_INDEX = 10_000;

/** Checks the numbers of an answer (the model's text) against everything the turn's tools produced. */
export async function groundTurnAnswer(
  layout: ConversationLayout,
  turnId: string,
  answer: string,
): Promise<Omit<Grounding, 'answerOffset'>> {
  const started = (await readEvents(layout)).find((e) => e.type === 'turn_started' && e.turnId === turnId);
  const sources = await turnSources(
    await readTurnToolCalls(layout, turnId),
    layout.workspace,
    String(started?.data.text ?? ''),
  );
  return groundAnswer(answer, sources);
}

/** The turn's grounding as a debug record (`debug/<turnId>-grounding.json`) and the event that goes with the answer. */
export async function groundingRecord(
  layout: ConversationLayout,
  turnId: string,
  grounding: Grounding,
): Promise<NewEvent> {
  const record: DebugStep = {
    stepId: `${turnId}-grounding`,
    turnId,
    index: GROUNDING_INDEX,
    kind: 'grounding',
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    timing: { modelMs: 0, executionMs: 0, toolsMs: 0, waitingMs: 0 },
    grounding,
  };
  await writeJsonAtomic(path.join(layout.debug, `${record.stepId}.json`), record);
  return { type: 'grounding', turnId, key: `${turnId}:grounding`, data: grounding };
}

/**
 * Checks an answer before its turn ends; when numbers are not found, records the `revise` step that asks the model to
 * check them (the workflow then asks). A retried check writes its step once (the event's key).
 */
export async function checkAnswerGrounding(input: CheckGroundingInput): Promise<CheckGroundingResult> {
  const layout = conversationLayout(input.dir);
  const reply = await readMessage(transcriptDir(layout, input.turnId, input.answer.agent), input.answer.index);
  const grounding = await groundTurnAnswer(layout, input.turnId, reply?.content.trim() ?? '');
  const ungrounded = [...new Set(grounding.numbers.filter((n) => !n.grounded).map((n) => n.text))];
  if (ungrounded.length) {
    const text = `${ungrounded.length} of the answer's ${grounding.total} numbers are not in this turn's tool outputs (${ungrounded.join(', ')}): the model is asked once to check them with code and revise the answer.`;
    const data = { stepId: `${input.turnId}-revise`, kind: 'revise' as const, text, agent: input.answer.agent };
    await appendEvents(layout, [{ type: 'step', turnId: input.turnId, key: `${input.turnId}:revise`, data }]);
  }
  return { total: grounding.total, ungrounded };
}
