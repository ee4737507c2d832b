import path from 'node:path';
import { readJsonIfPresent } from '../../lib/json';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { printedResult } from '../grounding/computedAnswer';
import { CHECK_FAILED_LEAD } from '../grounding/correctnessNote';
import { missingGroups } from '../grounding/coverage';
import { compareWithProgram, pickByOperation, type Agreement } from '../grounding/crossCheck';
import { numbersInProse } from '../grounding/numbers';
import { turnSources } from '../grounding/sources';
import type { DebugStep } from './debug';
import { readTurnToolCalls } from './debugStore';
import { appendEvents } from './eventLog';
import { crossCheckRecordSchema, type CrossCheckRecord, type SecondProgram } from './crossCheckRecord';
import { reviseDisagreementInstruction, revisePartialInstruction, SECOND_PROGRAM_AGENT } from './crossCheckPrompts';
import { shownAnswer, turnEvidence, turnQuestion } from './grounding';
import { conversationLayout, type ConversationLayout } from './layout';
import type { CheckGroundingInput, CrossCheckInput, CrossCheckResult } from './steps';
import { readMessage, transcriptDir } from './transcript';

/** Lines of a table the second program saved that are compared and quoted. */
const TABLE_LINES = 21;

/** Cross-check records sort after the turn's steps and before its grounding record in the debug view. */
const CROSS_CHECK_INDEX = 9_000;

export interface CrossCheckOptions {
  /** The answer is shown rebuilt from the computed result when it states numbers its code did not compute. */
  answerFromResult: boolean;
}

/** Whether the answer is worth a second program: it states a number of its own (not one the question gave). */
export async function crossCheckNeeded(input: CheckGroundingInput, options: CrossCheckOptions): Promise<boolean> {
  const layout = conversationLayout(input.dir);
  const said = await answerShown(layout, input, options);
  const given = new Set(numbersInProse(await turnQuestion(layout, input.turnId)).map((n) => n.value));
  return numbersInProse(said).some((n) => !given.has(n.value));
}

/**
 * Compares the answer (as it would be shown) with what the second program printed, records the verdict (a
 * `cross_check` step, its debug record, `cross-check.json`) and says what the workflow does next. A retried check
 * writes its step once (the event's key) and overwrites its files with the same content.
 */
export async function crossCheckAnswer(input: CrossCheckInput, options: CrossCheckOptions): Promise<CrossCheckResult> {
  const layout = conversationLayout(input.dir);
  const said = await answerShown(layout, input, options);
  const first = await turnEvidence(layout, input.turnId);
  const second = await secondProgram(layout, input.turnId);
  const agreement: Agreement = second
    ? compareWithProgram(said, second.printed, first.question)
    : { verdict: 'inconclusive', why: 'the second program did not run successfully' };
  // Agreeing numbers may still be some of those asked ("407" for the total per region): the groups left out.
  const missing =
    agreement.verdict === 'agree' && second
      ? missingGroups(first.question, said, second.printed, savedTables(first.sources))
      : [];
  const record = {
    ...verdictRecord(input.round, agreement, first, second),
    ...(missing.length ? partialRecord(input.round, missing) : {}),
    answer: { agent: input.answer.agent, index: input.answer.index },
  };
  await writeRecord(layout, input.turnId, record);
  const revision = input.round === 1 && second ? revisionOf(record, second) : undefined;
  return { verdict: record.verdict, ...(record.use ? { use: record.use } : {}), ...(revision ? { revision } : {}) };
}

/** The request to revise after the first round: a disagreement nothing settled, or an answer giving some of the values. */
function revisionOf(record: Omit<CrossCheckRecord, 'answer'>, second: SecondProgram): string | undefined {
  if (record.verdict === 'disagree' && !record.use)
    return reviseDisagreementInstruction(second, record.unmatched ?? []);
  if (record.missing?.length) return revisePartialInstruction(second, record.missing);
  return undefined;
}

/** What the record says of an answer whose numbers agree but leave groups out. */
function partialRecord(round: number, missing: string[]): Pick<CrossCheckRecord, 'missing' | 'text'> {
  const next =
    round === 1
      ? ' The model is asked once to give every value.'
      : ' Still incomplete after the revision: the answer is shown with the values the second program computed.';
  return {
    missing,
    text: `A second program, written independently, computed the answer's numbers: they agree, but the answer leaves out ${missing.length} of the values the question asks for (${missing.join(', ')}).${next}`,
  };
}

/** The tables the first program saved (their text), which may hold the values an answer does not repeat. */
function savedTables(sources: Array<{ kind: string; text: string }>): string[] {
  return sources.filter((s) => s.kind === 'table').map((s) => s.text);
}

/** What the reader is told under an answer that still leaves out values the second program computed. */
export function partialNote(record: CrossCheckRecord): string | undefined {
  if (record.verdict !== 'agree' || !record.missing?.length || !record.second) return undefined;
  return `_This answer leaves out ${record.missing.join(', ')}. A second program, written independently for this question, computed every value (it agrees with the answer's):_\n\n\`\`\`\n${record.second.printed}\n\`\`\``;
}

/** The turn's cross-check record when it ran one on this answer (the answer the turn ends with). */
export async function readCrossCheck(
  layout: ConversationLayout,
  turnId: string,
  answer: { agent: string; index: number },
): Promise<CrossCheckRecord | undefined> {
  const record = await readJsonIfPresent(recordPath(layout, turnId), crossCheckRecordSchema);
  return record?.answer.agent === answer.agent && record.answer.index === answer.index ? record : undefined;
}

/** The answer to show instead of the first program's: the second program's result, and why. */
export function secondProgramAnswer(record: CrossCheckRecord): string | undefined {
  const result = printedResult(record.second?.printed, 'what a second, independently written program printed');
  const op = record.firstOperation;
  if (record.use !== 'second' || !result || !op) return undefined;
  return `${result}\n\n_The first program counted rows (\`${op.used}\`) where the question asks for the ${op.asked}; a second program, written independently for this question, computed the result above (both are in the debug view)._`;
}

/** What the reader is told under an answer a second, independently written program still disagrees with. */
export function disagreementNote(record: CrossCheckRecord, afterNote: boolean): string | undefined {
  if (record.verdict !== 'disagree' || record.use || !record.second) return undefined;
  const lead = afterNote ? 'Also, a' : `${CHECK_FAILED_LEAD} a`;
  return `${lead} second program, written independently for this question, disagrees with this answer (it did not compute ${(record.unmatched ?? []).join(', ')}). It printed:\n\n\`\`\`\n${record.second.printed}\n\`\`\``;
}

function verdictRecord(
  round: number,
  agreement: Agreement,
  first: { question: string; codes: string[] },
  second: (SecondProgram & { codes: string[] }) | undefined,
): Omit<CrossCheckRecord, 'answer'> {
  const base = {
    round,
    verdict: agreement.verdict,
    ...(second ? { second: { code: second.code, printed: second.printed } } : {}),
  };
  if (agreement.verdict === 'agree')
    return { ...base, text: `A second program, written independently, computed the answer's numbers: they agree.` };
  if (agreement.verdict === 'inconclusive')
    return { ...base, why: agreement.why, text: `Nothing to compare with a second program: ${agreement.why}.` };
  const op = pickByOperation(first.question, first.codes, second?.codes ?? []);
  // The second program's result is shown only when it is short enough to be one.
  const use = op.pick === 'first' || (op.pick === 'second' && printedResult(second?.printed, '')) ? op.pick : undefined;
  const ops = {
    ...(op.first ? { firstOperation: op.first } : {}),
    ...(op.second ? { secondOperation: op.second } : {}),
  };
  const lead = `A second program, written independently, disagrees with the answer (it did not compute ${agreement.unmatched.join(', ')}).`;
  const next =
    use === 'second'
      ? ` The first program counted rows (${op.first!.used}) where the question asks for the ${op.first!.asked}; the second did not: its result is shown.`
      : use === 'first'
        ? ` The second program counted rows (${op.second!.used}) where the question asks for the ${op.second!.asked}: the answer stands.`
        : round === 1
          ? ' The model is asked once to check with code which one is right.'
          : ' They still disagree after the revision: the answer is shown with a note.';
  return { ...base, ...ops, unmatched: agreement.unmatched, ...(use ? { use } : {}), text: lead + next };
}

/** The answer as the turn would show it now (the model's reply, rebuilt from results for the text protocol). */
async function answerShown(
  layout: ConversationLayout,
  input: CheckGroundingInput,
  options: CrossCheckOptions,
): Promise<string> {
  const reply = await readMessage(transcriptDir(layout, input.turnId, input.answer.agent), input.answer.index);
  const said = reply?.content.trim() ?? '';
  return (await shownAnswer(layout, input.turnId, said, options.answerFromResult)).said;
}

/** The second program's last successful python run: its code and output (stdout, and the head of any table it saved). */
async function secondProgram(
  layout: ConversationLayout,
  turnId: string,
): Promise<(SecondProgram & { codes: string[] }) | undefined> {
  const calls = await readTurnToolCalls(layout, turnId, (agent) => agent === SECOND_PROGRAM_AGENT);
  const runs = calls.filter((c) => c.tool === 'python_execute' && c.ok);
  const codes = runs.flatMap((c) => {
    const code = (c.args as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? [code] : [];
  });
  const last = runs.filter((c) => (c.result as { success?: unknown } | undefined)?.success === true).at(-1);
  const code = (last?.args as { code?: unknown } | undefined)?.code;
  if (!last || typeof code !== 'string') return undefined;
  // What it printed, then any table it saved anyway (a result it did not print in full).
  const outputs = (await turnSources([last], layout.workspace, '')).filter(
    (s) => s.kind === 'stdout' || s.kind === 'table',
  );
  const printed = outputs
    .map((s) => (s.kind === 'table' ? s.text.split(/\r?\n/).slice(0, TABLE_LINES).join('\n') : s.text).trim())
    .filter(Boolean)
    .join('\n');
  return printed ? { code, printed, codes } : undefined;
}

function recordPath(layout: ConversationLayout, turnId: string): string {
  return path.join(layout.turns, turnId, 'cross-check.json');
}

async function writeRecord(layout: ConversationLayout, turnId: string, record: CrossCheckRecord): Promise<void> {
  await writeJsonAtomic(recordPath(layout, turnId), record);
  const debug: DebugStep & { crossCheck: CrossCheckRecord } = {
    stepId: `${turnId}-cross-check-${record.round}`,
    turnId,
    index: CROSS_CHECK_INDEX + record.round,
    kind: 'cross_check',
    agent: SECOND_PROGRAM_AGENT,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    timing: { modelMs: 0, executionMs: 0, toolsMs: 0, waitingMs: 0 },
    reply: { content: record.text },
    crossCheck: record,
  };
  await writeJsonAtomic(path.join(layout.debug, `${debug.stepId}.json`), debug);
  const data = { stepId: debug.stepId, kind: 'cross_check' as const, text: record.text, agent: SECOND_PROGRAM_AGENT };
  await appendEvents(layout, [{ type: 'step', turnId, key: `${turnId}:cross-check:${record.round}`, data }]);
}
