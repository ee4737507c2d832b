import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { RunLayout } from '../../lib/runStore/runLayout';
import { OfficialFiles } from '../../benchmarks/spreadsheetbench/layout';
import type { SheetTask } from '../../benchmarks/spreadsheetbench/dataset';
import type { StageRecord, TaskFailureClass, TaskResult } from '../../contracts/taskResult';

/**
 * Builds synthetic run folders (the layout of lib/runStore/runLayout.ts) for report tests. Soft/hard follow the
 * official rules from the test-case results (soft = fraction passed, hard = all passed); task llmCalls, usage and
 * cost are the sums of the stage records.
 */

export type InstructionType = SheetTask['instruction_type'];

export interface FixtureStage {
  stage: string;
  calls: number;
  input: number;
  output: number;
  usd: number;
  ms: number;
}

export interface FixtureTask {
  id: number | string;
  type: InstructionType;
  /** Absent: the task is pending (no result file). */
  cases?: number[];
  reasons?: (string | null)[];
  failure?: { class: TaskFailureClass; message: string };
  stages?: FixtureStage[];
  /** Write tasks/<id>/transcript.json. */
  transcript?: boolean;
  /** Write outputs/<setting>_<model>/{N}_{id}_output.xlsx placeholders (empty files). */
  outputs?: boolean;
}

export interface FixtureRun {
  runId: string;
  model?: string;
  agent?: string;
  createdAt?: string;
  tasks: FixtureTask[];
}

export const FIXTURE_SETTING = 'single';

export async function makeTempDir(prefix = 'sheetbench-report-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function buildRunFolder(parentDir: string, spec: FixtureRun): Promise<string> {
  const model = spec.model ?? 'gpt-4o-mini';
  const dir = path.join(parentDir, spec.runId);
  const layout = new RunLayout(dir);
  const official = new OfficialFiles(dir, FIXTURE_SETTING, model);
  await mkdir(layout.resultsDir, { recursive: true });
  await writeJson(layout.runManifestPath, {
    runId: spec.runId,
    benchmark: 'spreadsheetbench',
    agent: spec.agent ?? 'single',
    setting: FIXTURE_SETTING,
    datasetDir: '/data/spreadsheetbench-synthetic',
    datasetVersion: 'sha256:fixture',
    scoringMode: 'official',
    createdAt: spec.createdAt ?? '2025-07-18T14:55:41.123Z',
    taskCount: spec.tasks.length,
    // An apiKey never belongs in run.json; one planted here must not reach any report output either.
    llm: { provider: 'openai', model, temperature: 0, apiKey: 'sk-test-not-a-key' },
    agentSettings: { maxTurns: 5, maxRevisions: 3, previewRows: 5, promptVersion: 'official-v1' },
    experimentHash: `hash-${spec.runId}`,
  });
  await writeJson(layout.taskListPath, spec.tasks.map(sheetTask));
  for (const task of spec.tasks) {
    if (task.cases) await writeJson(layout.taskResultPath(String(task.id)), taskResult(task));
    if (task.transcript) await writeJson(layout.transcriptPath(String(task.id)), transcript(task));
    if (task.outputs && task.cases) {
      await mkdir(official.outputsDir, { recursive: true });
      for (let n = 1; n <= task.cases.length; n++) await writeFile(official.outputPath(String(task.id), n), '');
    }
  }
  return dir;
}

export function sheetTask(task: FixtureTask): SheetTask {
  return {
    id: task.id,
    instruction: `Task ${task.id}: fill column C with A+B <b>bold</b> & done`,
    spreadsheet_path: `spreadsheet/${task.id}`,
    instruction_type: task.type,
    answer_position: `'Sheet1'!C1:C${String(task.id).length + 3}`,
    answer_sheet: 'Sheet1',
  };
}

function taskResult(task: FixtureTask): TaskResult {
  const cases = task.cases ?? [];
  const stages: StageRecord[] = (task.stages ?? []).map((s) => ({
    stage: s.stage,
    llmCalls: s.calls,
    usage: { inputTokens: s.input, outputTokens: s.output },
    costUsd: s.usd,
    wallMs: s.ms,
    outcome: task.failure ? 'failed' : 'ok',
  }));
  const total = (f: (s: StageRecord) => number) => stages.reduce((a, s) => a + f(s), 0);
  return {
    taskId: String(task.id),
    id: task.id,
    instructionType: task.type,
    testCaseResults: cases,
    soft: cases.length ? cases.filter((c) => c === 1).length / cases.length : 0,
    hard: cases.length && cases.every((c) => c === 1) ? 1 : 0,
    ...(task.failure ? { failure: task.failure } : {}),
    llmCalls: total((s) => s.llmCalls),
    usage: { inputTokens: total((s) => s.usage.inputTokens), outputTokens: total((s) => s.usage.outputTokens) },
    costUsd: total((s) => s.costUsd),
    stages,
    reasons: task.reasons ?? cases.map((c) => (c === 1 ? null : 'File not exist')),
    wallMs: total((s) => s.wallMs),
  };
}

function transcript(task: FixtureTask) {
  return {
    messages: [
      { role: 'system', content: 'You write Python that edits spreadsheets.' },
      { role: 'user', content: `Instruction for ${task.id} <script>alert("x")</script>` },
      { role: 'assistant', content: "```python\nimport openpyxl\nwb = openpyxl.load_workbook('in.xlsx')\n```" },
      { role: 'user', content: [{ type: 'text', text: 'Execution result: ok' }] },
      { role: 'assistant', content: `Done with task ${task.id}.` },
    ],
    executions: [{ code: "print('hello')", stdout: 'hello\n', stderr: '', error: null }],
    stages: [{ stage: 'solve' }],
  };
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
}

/**
 * Five tasks: two full passes (101, 104), a partial pass (102), an LLM failure (13-1) and a pending task (105).
 * Expected figures are worked out by hand in the tests.
 */
export function standardRun(runId = 'run-a'): FixtureRun {
  const cell: InstructionType = 'Cell-Level Manipulation';
  const sheet: InstructionType = 'Sheet-Level Manipulation';
  return {
    runId,
    tasks: [
      {
        id: 101,
        type: cell,
        cases: [1, 1, 1],
        transcript: true,
        outputs: true,
        stages: [
          { stage: 'plan', calls: 1, input: 100, output: 20, usd: 0.001, ms: 1000 },
          { stage: 'solve', calls: 2, input: 300, output: 80, usd: 0.003, ms: 2000 },
        ],
      },
      {
        id: 102,
        type: cell,
        cases: [1, 0, 1],
        reasons: [null, 'B3: expected 4.0 got None', null],
        transcript: true,
        outputs: true,
        stages: [{ stage: 'solve', calls: 1, input: 200, output: 50, usd: 0.002, ms: 1500 }],
      },
      {
        id: '13-1',
        type: sheet,
        cases: [0, 0, 0],
        failure: { class: 'llm', message: 'retries exhausted after 429' },
        transcript: true,
        stages: [{ stage: 'solve', calls: 1, input: 50, output: 0, usd: 0.0005, ms: 300 }],
      },
      {
        id: 104,
        type: sheet,
        cases: [1, 1, 1],
        transcript: true,
        outputs: true,
        stages: [
          { stage: 'plan', calls: 1, input: 100, output: 10, usd: 0.0008, ms: 500 },
          { stage: 'solve', calls: 1, input: 150, output: 40, usd: 0.0015, ms: 800 },
        ],
      },
      { id: 105, type: cell },
    ],
  };
}

/** A baseline for `standardRun`: 101 failed there (fixed now), 102 passed (broken now), 105 finished, 106 only there. */
export function baselineRun(runId = 'run-base'): FixtureRun {
  const cell: InstructionType = 'Cell-Level Manipulation';
  const sheet: InstructionType = 'Sheet-Level Manipulation';
  const solve = (usd: number): FixtureStage[] => [{ stage: 'solve', calls: 1, input: 100, output: 25, usd, ms: 1000 }];
  return {
    runId,
    tasks: [
      { id: 101, type: cell, cases: [1, 0, 0], stages: solve(0.001) },
      { id: 102, type: cell, cases: [1, 1, 1], stages: solve(0.001) },
      { id: '13-1', type: sheet, cases: [0, 0, 0], stages: solve(0.001) },
      { id: 104, type: sheet, cases: [1, 1, 1], stages: solve(0.001) },
      { id: 105, type: cell, cases: [1, 1, 1], stages: solve(0.001) },
      { id: 106, type: sheet, cases: [0, 1, 0], stages: solve(0.001) },
    ],
  };
}
