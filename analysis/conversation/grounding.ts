import path from 'node:path';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { checkCorrectness } from '../grounding/correctness';
import { computedAnswer } from '../grounding/computedAnswer';
import { groundAnswer } from '../grounding/ground';
import { turnSources } from '../grounding/sources';
import type { Grounding } from '../grounding/types';
import type { DebugStep } from './debug';
import { answersTurn } from './crossCheckPrompts';
import { readTurnToolCalls } from './debugStore';
import { appendEvents, readEvents } from './eventLog';
import type { NewEvent } from './events';
import { conversationLayout, type ConversationLayout } from './layout';
import { reviseAnswerInstruction, reviseNumbersInstruction, reviseNumbersNeedsCode } from './prompts';
import type { CheckGroundingInput, CheckGroundingResult } from './steps';
import { readMessage, transcriptDir } from './transcript';

/** Grounding records sort after every step of their turn in the debug view. */
const GROUNDING_INDEX = 10_000;

/** Which agents' tool calls an answer is checked against: by default every agent's but the second program's. */
export type AgentFilter = (agent: string | undefined) => boolean;

/** The question a turn answers, as the user sent it. */
export async function turnQuestion(layout: ConversationLayout, turnId: string): Promise<string> {
  const started = (await readEvents(layout)).find((e) => e.type === 'turn_started' && e.turnId === turnId);
  return String(started?.data.text ?? '');
}

/** The turn's question and what its tools produced (texts and code), which an answer is checked against. */
export async function turnEvidence(layout: ConversationLayout, turnId: string, agents: AgentFilter = answersTurn) {
  const question = await turnQuestion(layout, turnId);
  const calls = await readTurnToolCalls(layout, turnId, agents);
  const codes = calls.flatMap((c) => {
    const code = (c.args as { code?: unknown } | undefined)?.code;
    return c.tool === 'python_execute' && typeof code === 'string' ? [code] : [];
  });
  return { question, codes, sources: await turnSources(calls, layout.workspace, question) };
}

/** An answer's grounding and the evidence of whether it is right, from one read of the turn's tool calls. */
export async function checkTurnAnswer(
  layout: ConversationLayout,
  turnId: string,
  answer: string,
  agents: AgentFilter = answersTurn,
) {
  const evidence = await turnEvidence(layout, turnId, agents);
  return {
    grounding: groundAnswer(answer, evidence.sources),
    correctness: checkCorrectness({ ...evidence, answer }),
  };
}

/**
 * The answer a turn shows for the model's text, with its check: for models speaking the text protocol
 * (`answerFromResult`), an answer whose numbers its code did not compute is rebuilt from the computed result.
 */
export async function shownAnswer(
  layout: ConversationLayout,
  turnId: string,
  modelText: string,
  answerFromResult: boolean,
): Promise<{ said: string; checked: Awaited<ReturnType<typeof checkTurnAnswer>> }> {
  const checked = await checkTurnAnswer(layout, turnId, modelText);
  const rebuilt = answerFromResult ? computedAnswer(modelText, checked.correctness, checked.grounding) : undefined;
  if (!rebuilt) return { said: modelText, checked };
  return { said: rebuilt.text, checked: await checkTurnAnswer(layout, turnId, rebuilt.text) };
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
 * Checks an answer before its turn ends: its numbers against the turn's tool outputs (grounding), and whether it is
 * right (the operation against the question, the numbers against the table the turn saved). When something is off,
 * records the `revise` step with its evidence and returns the request to revise (the workflow then asks, once). A
 * retried check writes its step once (the event's key).
 */
export async function checkAnswerGrounding(input: CheckGroundingInput): Promise<CheckGroundingResult> {
  const layout = conversationLayout(input.dir);
  const reply = await readMessage(transcriptDir(layout, input.turnId, input.answer.agent), input.answer.index);
  const answer = reply?.content.trim() ?? '';
  const evidence = await turnEvidence(layout, input.turnId);
  const grounding = groundAnswer(answer, evidence.sources);
  const ungrounded = [...new Set(grounding.numbers.filter((n) => !n.grounded).map((n) => n.text))];
  const correctness = grounding.total ? checkCorrectness({ ...evidence, answer }) : undefined;
  const revise = reviseStep(grounding.total, ungrounded, correctness, evidence.codes);
  if (!revise) return { total: grounding.total, ungrounded };
  const data = {
    stepId: `${input.turnId}-revise`,
    kind: 'revise' as const,
    text: revise.why,
    agent: input.answer.agent,
  };
  await appendEvents(layout, [{ type: 'step', turnId: input.turnId, key: `${input.turnId}:revise`, data }]);
  // A wrong operation, or unfound numbers nothing computed could answer with: the revision must run code first.
  const recompute = correctness?.wrong ? Boolean(correctness.operation) : reviseNumbersNeedsCode(correctness);
  return { total: grounding.total, ungrounded, revision: revise.instruction, ...(recompute ? { recompute } : {}) };
}

/** Why the answer goes back to the model (shown as the `revise` step) and the instruction it gets; none when right. */
function reviseStep(
  total: number,
  ungrounded: string[],
  correctness: ReturnType<typeof checkCorrectness> | undefined,
  codes: string[],
): { why: string; instruction: string } | undefined {
  if (correctness?.wrong) {
    const why = [
      correctness.operation &&
        `the question asks for the ${correctness.operation.asked} but the code counted ${correctness.operation.kind === 'distinct' ? 'every row' : 'rows'} (${correctness.operation.used})`,
      correctness.rows.length &&
        `${correctness.rows.length} of the answer's numbers disagree with the saved table ${correctness.table?.file ?? ''} (${correctness.rows.map((r) => `${r.label}: ${r.stated}, table ${r.expected.join(' / ')}`).join('; ')})`,
    ].filter(Boolean);
    return {
      why: `The answer looks wrong: ${why.join('; ')}. The model is asked once to recompute and revise it.`,
      instruction: reviseAnswerInstruction(correctness),
    };
  }
  if (!ungrounded.length) return undefined;
  return {
    why: `${ungrounded.length} of the answer's ${total} numbers are not in this turn's tool outputs (${ungrounded.join(', ')}): the model is asked once to check them with code and revise the answer.`,
    instruction: reviseNumbersInstruction(ungrounded, correctness, codes),
  };
}
