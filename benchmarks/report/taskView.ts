/**
 * One task of a run as `sheetbench show` and the web app's task page present it, for any benchmark: what was asked,
 * each test case's verdict with the cells that differ, and the agent's trajectory step by step. The JSON form is a
 * contract (`show --json`, `GET /api/runs/:id/tasks/:task`): fields are added, never renamed.
 */
import type { TokenUsage } from '../../lib/llm/usage';

/**
 * Which comparison a cell failed: the official evaluator compares values only (its colour checks are off);
 * SpreadsheetBench 2 compares formulas (Debugging's `Embedded` tasks, and cells holding an error value) and font colours.
 */
export type CellCheck = 'value' | 'fill' | 'font' | 'formula';

/** A cell's value as the scorer read it (openpyxl data_only semantics) and its type. */
export interface DiffValue {
  /** JSON form: numbers, text and booleans as they are; dates and times as ISO-like text; null for an empty cell. */
  value: number | string | boolean | null;
  type: 'empty' | 'number' | 'text' | 'bool' | 'datetime' | 'date' | 'time' | 'duration';
  /** The cell holds a formula without a cached value (reads as empty: the workbook was not recalculated). */
  uncachedFormula?: true;
}

export interface CellMismatch {
  /** `Sheet!A1`. */
  cell: string;
  expected: DiffValue;
  got: DiffValue;
  check: CellCheck;
  /** Benchmarks that tell them apart (SpreadsheetBench 2): a cell the task should keep (regression) or change (modification). */
  kind?: 'regression' | 'modification';
}

/** Cells of one kind checked and found right. */
export interface CellTally {
  correct: number;
  total: number;
  /** correct / total as the benchmark rounds it (0 when total is 0). */
  accuracy: number;
}

export interface TestCaseView {
  index: number;
  pass: boolean;
  reason?: string;
  /** False for results recorded without cell diffs (older versions): then `mismatches` is empty and says nothing. */
  diffRecorded: boolean;
  mismatches: CellMismatch[];
  omitted: number;
  checkedCells?: number;
  /** The expected answer fills `filled` of the `cells` checked. */
  fill?: { cells: number; filled: number } | null;
  /** Whether the unchanged input already passes (the floor). */
  inputPasses?: boolean;
  unreachable?: string;
  /** The output workbook, relative to the run folder, when one was written. */
  output?: string;
  /** Benchmarks that score kept and changed cells apart (SpreadsheetBench 2): each tally. */
  cells?: { regression: CellTally; modification: CellTally };
}

export interface ExchangeView {
  conversation: string;
  prompt: string;
  reply: string;
  /** The model's reasoning text beside the reply, when the provider returned one (OpenRouter, DeepSeek). */
  reasoning?: string;
}

export interface ExecutionView {
  label: string;
  testCase?: number;
  code: string;
  stdout: string;
  stderr: string;
  error?: string;
  timedOut?: boolean;
  durationMs?: number;
}

/** One stage or round of the agent: its prompt and reply, the code it ran and what that printed, and its spend. */
export interface TrajectoryStep {
  stage: string;
  outcome: string;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  wallMs: number;
  exchanges: ExchangeView[];
  code?: string;
  executions: ExecutionView[];
}

/** DSBench: the question and the judge's view of the answer. */
export interface QuestionView {
  question: string;
  expected: string;
  reply?: string;
  verdict?: string;
  judgeModel?: string;
  judgeReply?: string;
  exactMatch?: boolean;
}

export interface TaskView {
  runId: string;
  benchmark: string;
  taskId: string;
  /** The attempt shown: its key (`<id>` or `<id>@<epoch>`) and epoch; `epochs` lists the attempts recorded. */
  attempt: string;
  epoch: number;
  epochs: number[];
  instruction: string;
  instructionType?: string;
  answerPosition?: string;
  status: 'pending' | 'scored' | 'failed';
  soft?: number;
  hard?: number;
  failure?: { class: string; message: string };
  testCases: TestCaseView[];
  question?: QuestionView;
  trajectory: TrajectoryStep[];
  totals: {
    llmCalls: number;
    inputTokens: number;
    outputTokens: number;
    /** Of the input and output tokens, those the provider reported cached or spent reasoning (when it did). */
    cachedInputTokens?: number;
    reasoningTokens?: number;
    costUsd: number;
    wallMs: number;
  };
  /** Said once for the whole task when its result predates cell diffs (shown as "no cell diff recorded"). */
  notes: string[];
}

/**
 * A test case as grids of its answer range (input, expected, got side by side, mismatches marked), for benchmarks whose
 * answers are workbooks (`Benchmark.testCaseGrid`). `GET /api/runs/:id/tasks/:task/cases/:n/grid` answers this shape.
 */
export interface GridCell {
  /** As Excel shows it. */
  text: string;
  type: DiffValue['type'];
  /** Only on output cells the official compare rejects: why. */
  mismatch?: string;
}

export type GridRows = GridCell[][];

export interface GridPiece {
  sheet: string;
  /** The answer-position piece as written, and the part of it shown (A1 range). */
  piece: string;
  shown: string;
  columns: string[];
  rows: number[];
  input: GridRows | null;
  expected: GridRows | null;
  got: GridRows | null;
  mismatches: number;
  /** Set when the range is larger than what is shown. */
  cut?: string;
}

export interface AnswerGrid {
  pieces: GridPiece[];
  /** What could not be shown, each naming the workbook and the cause. */
  problems: string[];
}

export interface TestCaseGrid extends AnswerGrid {
  runId: string;
  taskId: string;
  attempt: string;
  testCase: number;
  answerPosition: string;
}

/** A task id that is not in the run, or an attempt the run does not have: the message names the run and the task. */
export class TaskViewError extends Error {
  override name = 'TaskViewError';
}

/** Message content as text (transcripts may hold content parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) => (p && typeof p === 'object' && 'text' in p ? String((p as { text: unknown }).text) : ''))
      .join('');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** (prompt, reply) pairs of a conversation stored as alternating user/assistant messages after optional system ones. */
export function exchangesOf(
  conversation: string,
  messages: { role: string; content: unknown; reasoning?: unknown }[],
): ExchangeView[] {
  const out: ExchangeView[] = [];
  let prompt: string | undefined;
  for (const m of messages) {
    if (m.role === 'user') prompt = contentText(m.content);
    else if (m.role === 'assistant') {
      const reasoning = typeof m.reasoning === 'string' && m.reasoning ? { reasoning: m.reasoning } : {};
      out.push({ conversation, prompt: prompt ?? '', reply: contentText(m.content), ...reasoning });
      prompt = undefined;
    }
  }
  return out;
}

/** What a recorded task result gives every benchmark's view: its status, scores, failure and totals. */
export interface RecordedResult {
  soft: number;
  hard: number;
  failure?: { class: string; message: string };
  llmCalls: number;
  usage: TokenUsage;
  costUsd: number;
  wallMs: number;
}

export function resultFields(
  result: RecordedResult,
): Pick<TaskView, 'status' | 'soft' | 'hard' | 'failure' | 'totals'> {
  return {
    status: result.failure ? 'failed' : 'scored',
    soft: result.soft,
    hard: result.hard,
    ...(result.failure ? { failure: result.failure } : {}),
    totals: {
      llmCalls: result.llmCalls,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      ...(result.usage.cachedInputTokens ? { cachedInputTokens: result.usage.cachedInputTokens } : {}),
      ...(result.usage.reasoningTokens ? { reasoningTokens: result.usage.reasoningTokens } : {}),
      costUsd: result.costUsd,
      wallMs: result.wallMs,
    },
  };
}

/** A task not recorded yet (pending or running). */
export function pendingFields(what: string): Pick<TaskView, 'status' | 'trajectory' | 'totals' | 'notes'> {
  return {
    status: 'pending',
    trajectory: [],
    totals: { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, wallMs: 0 },
    notes: [`${what} has no result yet (pending or running)`],
  };
}
