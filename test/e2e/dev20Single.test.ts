import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { duplicatesAnswered } from '../../lib/scriptedLlm';
import { writeReport } from '../../benchmarks/spreadsheetbench/report/writeReport';
import { readTaskResult, runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';

/**
 * The whole pipeline on three real dev20 tasks: real Temporal dev server, scripted OpenAI-compatible server (real HTTP,
 * real `openai` client), bwrap sandbox, LibreOffice recalculation, official scoring.
 */
describe('single agent end to end on real dev20 tasks', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: Awaited<ReturnType<typeof runToEnd>>;

  beforeAll(async () => {
    env = await startE2E({ rules: Object.values(DEV20_SOLUTIONS) });
    run = await startBenchmarkRun(env, { dataset: DEV20, tasks: ['39604', '79-7', '599-9'] });
    final = await runToEnd(env, run);
  }, 240_000);
  afterAll(async () => env?.close());

  it('finishes every task once, with the right verdicts', () => {
    expect(final.done).toBe(3);
    expect(final.running).toBe(0);
    expect(readTaskResult(run.runDir, '39604').testCaseResults).toEqual([1, 1, 1]);
    expect(readTaskResult(run.runDir, '79-7').testCaseResults).toEqual([1, 1, 1]);
    const failed = readTaskResult(run.runDir, '599-9');
    expect(failed.testCaseResults).toEqual([0, 0, 0]);
    expect(failed.reasons[0]).toMatch(/not exist/i);
  });

  it('writes outputs under the official names, recalculated (cached values present)', () => {
    const outDir = path.join(run.runDir, 'outputs', 'single_scripted-model');
    expect(readdirSync(outDir).sort()).toEqual([
      '1_39604_output.xlsx',
      '1_79-7_output.xlsx',
      '2_39604_output.xlsx',
      '2_79-7_output.xlsx',
      '3_39604_output.xlsx',
      '3_79-7_output.xlsx',
    ]);
  });

  it('writes the official eval JSON with ids of their original type', () => {
    const evalJson = JSON.parse(readFileSync(path.join(run.runDir, 'eval_single_scripted-model.json'), 'utf8'));
    expect(evalJson.map((e: { id: unknown }) => e.id)).toEqual([39604, '79-7', '599-9']);
    expect(Object.keys(evalJson[0])).toEqual([
      'id',
      'instruction_type',
      'test_case_results',
      'soft_restriction',
      'hard_restriction',
    ]);
    expect(evalJson[0]).toMatchObject({ soft_restriction: 1, hard_restriction: 1 });
    expect(evalJson[2]).toMatchObject({ test_case_results: [0, 0, 0], soft_restriction: 0, hard_restriction: 0 });
    const summary = JSON.parse(readFileSync(path.join(run.runDir, 'summary.json'), 'utf8'));
    expect(summary.overall.soft).toBeCloseTo(2 / 3, 6);
  });

  it('writes the official conversation log: prompt, response, execution result, solution', () => {
    const lines = readFileSync(path.join(run.runDir, 'conv_single_scripted-model.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    const first = lines[0];
    expect(Object.keys(first)).toEqual(['id', 'instruction_type', 'conversation', 'solution']);
    expect(first.conversation).toHaveLength(3);
    expect(first.conversation[0]).toContain('### spreadsheet_content\nSheet Name: before');
    expect(first.conversation[2]).toBe('[Code executed successfully with no output]');
    expect(first.solution).toContain("ws['C4'] = '=MAX(0,IF((B3*1000)<22000,B4-20,B4-30))'");
    expect(lines[2].conversation[2]).toContain('ValueError: model gave up');
    // What the code saw beside its input: that test case's input only (answers are never in the sandbox).
    expect(lines[2].conversation[2]).toContain("VISIBLE ['1_599-9_input.xlsx']");
  });

  it('asked the model exactly once per task and never answered a call twice', () => {
    expect(env.llm.log.filter((e) => e.status === 200)).toHaveLength(3);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  });

  it('reports the real run: transcripts with messages and executions, and an Inspect log inspect_ai reads', async () => {
    const written = await writeReport({ runDir: run.runDir });
    expect([written.finishedTasks, written.pendingTasks, written.transcriptPages]).toEqual([3, 0, 3]);
    const transcript = JSON.parse(readFileSync(path.join(run.runDir, 'tasks', '39604', 'transcript.json'), 'utf8'));
    expect(transcript.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(transcript.executions.map((e: { label: string }) => e.label)).toEqual([
      'final-tc1',
      'final-tc2',
      'final-tc3',
    ]);
    const py = path.resolve('.tools/inspect-venv/bin/python');
    const check = `from inspect_ai.log import read_eval_log\nlog = read_eval_log(${JSON.stringify(written.inspectLog)})\nprint(log.status, len(log.samples), log.results.scores[0].metrics['accuracy'].value)`;
    expect(execFileSync(py, ['-c', check]).toString().trim()).toBe(`success 3 ${2 / 3}`);
  }, 60_000);

  it('recorded every execution, and no work dir ever held an answer file', () => {
    const records = readdirSync(path.join(run.runDir, 'tasks', '39604', 'executions')).sort();
    expect(records).toEqual(['final-tc1.json', 'final-tc2.json', 'final-tc3.json']);
    for (const file of records) {
      const rec = JSON.parse(readFileSync(path.join(run.runDir, 'tasks', '39604', 'executions', file), 'utf8'));
      expect(rec.files.some((f: string) => f.includes('_answer'))).toBe(false);
    }
  });
});
