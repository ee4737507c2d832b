import path from 'node:path';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { readEvents } from '../../analysis/conversation/eventLog';
import type { ConversationEvent } from '../../analysis/conversation/events';
import { conversationLayout } from '../../analysis/conversation/layout';
import type { VisualizationOutput } from '../../analysis/conversation/types';
import type { Pattern } from '../../contracts/conversation';
import { loadAnalysisSuite } from './dataset';
import { scoreAnalysis, type Score, type TurnOutput } from './score';
import type { AnalysisRun } from './run';
import type { TaskFailureClass } from '../../contracts/taskResult';
import type { TurnSummary } from '../../contracts/conversation';

/** results/<taskId>.json of an analysis run. */
export interface AnalysisRequestResult {
  taskId: string;
  level: number;
  /** The run's pattern (`--agent`), and the one JIT chose for `auto`. */
  pattern: Pattern;
  chosenPattern?: Pattern;
  /** scored: the turn ran and was checked · skipped: not run (reason) · failed: the request could not run (failure). */
  status: 'scored' | 'skipped' | 'failed';
  turnStatus?: string;
  pass: boolean;
  reason: string;
  steps: number;
  toolCalls: number;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  failure?: { class: TaskFailureClass; message: string };
  conversationDir?: string;
  wallMs: number;
  /** The answer's numbers and how many of them the turn's tools produced (its `grounding` event), for scored turns. */
  grounding?: { total: number; grounded: number };
}

export interface RecordInput {
  taskId: string;
  wallMs: number;
  skipped?: string;
  failure?: { class: TaskFailureClass; message: string };
  /** The ended turn: its conversation folder and summary. */
  turn?: { dir: string; summary: TurnSummary };
}

/** Scores the request's turn against its answer (read here, never shown to the agent) and writes its result file. */
export async function recordRequestResult(ctx: AnalysisRun, input: RecordInput): Promise<AnalysisRequestResult> {
  const task = ctx.task(input.taskId);
  const t = input.turn?.summary;
  const base = {
    taskId: task.id,
    level: task.level,
    pattern: ctx.manifest.agent as Pattern,
    ...(t?.chosenPattern ? { chosenPattern: t.chosenPattern } : {}),
    steps: t?.steps ?? 0,
    toolCalls: t?.toolCalls ?? 0,
    usage: { inputTokens: t?.usage.inputTokens ?? 0, outputTokens: t?.usage.outputTokens ?? 0 },
    costUsd: t?.usage.costUsd ?? 0,
    wallMs: input.wallMs,
    ...(input.turn ? { conversationDir: path.relative(ctx.layout.root, input.turn.dir) } : {}),
  };
  let result: AnalysisRequestResult;
  if (input.skipped) result = { ...base, status: 'skipped', pass: false, reason: input.skipped };
  else if (input.failure || !input.turn) {
    const failure = input.failure ?? { class: 'internal' as const, message: 'the request ended without a turn' };
    result = { ...base, status: 'failed', pass: false, reason: failure.message, failure };
  } else {
    const events = (await readEvents(conversationLayout(input.turn.dir))).filter(
      (e) => e.turnId === input.turn!.summary.turnId,
    );
    const broken = turnFailure(input.turn.summary, events);
    result = broken
      ? {
          ...base,
          status: 'failed',
          turnStatus: input.turn.summary.status,
          pass: false,
          reason: broken.message,
          failure: broken,
        }
      : {
          ...base,
          status: 'scored',
          turnStatus: input.turn.summary.status,
          ...(await scoreTurn(ctx, task.id, input.turn, events)),
          ...groundingOf(events),
        };
  }
  await writeJsonAtomic(ctx.layout.taskResultPath(task.id), result);
  return result;
}

/**
 * A turn that failed because the machinery did (the model endpoint, a tool's sandbox, the workflow) is a failed request
 * that `retry --failed` may redo, not a wrong answer; a turn stopped by its step or token budget is the agent's outcome.
 */
function turnFailure(
  summary: TurnSummary,
  events: ConversationEvent[],
): { class: TaskFailureClass; message: string } | undefined {
  if (summary.status !== 'failed') return undefined;
  const where = String(events.find((e) => e.type === 'error')?.data.where ?? 'workflow');
  if (where === 'budget') return undefined;
  const cls: TaskFailureClass = where === 'model' ? 'llm' : where === 'tool' ? 'sandbox' : 'internal';
  return { class: cls, message: `turn failed (${where}): ${summary.error ?? 'no message'}` };
}

function groundingOf(events: ConversationEvent[]): { grounding?: { total: number; grounded: number } } {
  const g = events.find((e) => e.type === 'grounding')?.data as { total?: number; grounded?: number } | undefined;
  return typeof g?.total === 'number' && typeof g.grounded === 'number'
    ? { grounding: { total: g.total, grounded: g.grounded } }
    : {};
}

async function scoreTurn(
  ctx: AnalysisRun,
  taskId: string,
  turn: { dir: string; summary: TurnSummary },
  events: ConversationEvent[],
): Promise<Score> {
  if (turn.summary.status !== 'completed')
    return { pass: false, reason: `turn ${turn.summary.status}${turn.summary.error ? `: ${turn.summary.error}` : ''}` };
  const { answers } = await loadAnalysisSuite(ctx.manifest.datasetDir);
  return scoreAnalysis(answers[taskId], turnOutput(turn.dir, events));
}

/** What the scorer reads of an ended turn (its events): the answer shown, the visualizations, the workspace. */
export function turnOutput(turnDir: string, events: ConversationEvent[]): TurnOutput {
  const answer = String(events.find((e) => e.type === 'answer')?.data.text ?? '');
  const visualizations = events
    .filter((e) => e.type === 'visualization')
    .map((e) => e.data.output as VisualizationOutput);
  return { answer, visualizations, workspaceDir: conversationLayout(turnDir).workspace };
}
