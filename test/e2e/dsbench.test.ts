import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered } from '../../lib/scriptedLlm';
import {
  runToEnd,
  startBenchmarkRun,
  startE2E,
  startInProcessWorkers,
  type E2EEnv,
  type StartedRun,
} from '../helpers/e2e';
import { recordRejudgeSettings, startRejudge } from '../../client/startRejudge';
import { readManifest } from '../../lib/runStore/manifest';
import { DSBENCH_SAMPLE_SCRIPT } from '../helpers/dsbenchScript';
import { writeDsbenchReport } from '../../benchmarks/dsbench/report';
import { dsbenchTaskView } from '../../benchmarks/dsbench/taskView';

const INSPECT_PYTHON = path.resolve(__dirname, '../../.tools/inspect-venv/bin/python');
/** Reads the log with the real inspect_ai: full read, header-only read (key order), pydantic validation. */
const VALIDATE = `
import json, sys
from inspect_ai.log import EvalLog, read_eval_log
path = sys.argv[1]
log = read_eval_log(path)
header = read_eval_log(path, header_only=True)
with open(path) as f:
    EvalLog.model_validate(json.load(f))
print(json.dumps({
  "status": log.status, "task": log.eval.task, "header_samples": header.samples,
  "ids": [s.id for s in log.samples], "targets": {s.id: s.target for s in log.samples},
  "values": {s.id: s.scores["dsbench_judge"].value for s in log.samples},
  "competitions": sorted({s.metadata["competition_id"] for s in log.samples}),
  "metrics": {k: m.value for k, m in log.results.scores[0].metrics.items()},
}))
`;

const SAMPLE = path.resolve(__dirname, '../../data/dsbench-sample');

function readJson(file: string) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Serves the queue with in-process workers until the workflow ends. */
async function untilDone(env: E2EEnv, handle: { result(): Promise<unknown> }): Promise<void> {
  const workers = await startInProcessWorkers(env, { recalc: false });
  const running = workers.run();
  try {
    await handle.result();
  } finally {
    await workers.shutdown();
    await running;
  }
}

/** A rejudge to its end, as the CLI runs it: its workflow, then its `finished` record (else it stays unfinished). */
async function rejudgeToEnd(env: E2EEnv, runDir: string, opts: { judgeModel?: string; tag: string }) {
  const manifest = await readManifest(runDir);
  const started = (await startRejudge(env.client, env.config, manifest, runDir, opts))!;
  await untilDone(env, started.handle);
  await recordRejudgeSettings(manifest, runDir, started.tag);
  return started;
}

/** DSBench model-only on the generated sample: real Temporal, scripted model and judge, sandboxed pandas. */
describe('DSBench model-only end to end', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: Awaited<ReturnType<typeof runToEnd>>;

  beforeAll(async () => {
    env = await startE2E(DSBENCH_SAMPLE_SCRIPT, { config: { recalc: { engine: 'none' } } });
    run = await startBenchmarkRun(env, { dataset: SAMPLE, agent: 'model-only' });
    final = await runToEnd(env, run);
  }, 240_000);
  afterAll(async () => env?.close());

  it('records the benchmark and its settings in run.json', () => {
    const manifest = readJson(path.join(run.runDir, 'run.json'));
    expect(manifest).toMatchObject({
      benchmark: 'dsbench',
      edition: 'data_analysis',
      agent: 'model-only',
      taskCount: 7,
    });
    expect(manifest.benchmarkSettings).toMatchObject({
      judgeModel: 'gpt-4o-2024-05-13',
      contextLimit: 128000,
      encoding: 'cl100k_base',
    });
  });

  it('judges every question once and scores as the original does', () => {
    expect(final.done).toBe(7);
    const verdicts = Object.fromEntries(
      readdirSync(path.join(run.runDir, 'results')).map((f) => [
        f.replace(/\.json$/, ''),
        readJson(path.join(run.runDir, 'results', f)).verdict,
      ]),
    );
    expect(verdicts).toEqual({
      '00000101_question1': 'correct',
      '00000101_question2': 'correct',
      '00000101_question3': 'incorrect',
      '00000102_question1': 'correct',
      '00000102_question2': 'unparseable',
      '00000103_question1': 'correct',
      '00000103_question2': 'incorrect',
    });
    const summary = readJson(path.join(run.runDir, 'summary.json'));
    expect(summary.dsbench.accuracy).toBeCloseTo(4 / 7, 9);
    // (2/3 + 1/2 + 1/2) / 3
    expect(summary.dsbench.competitionAccuracy).toBeCloseTo((2 / 3 + 1 / 2 + 1 / 2) / 3, 9);
    expect(summary.dsbench.unparseableJudgments).toBe(1);
    expect(summary.dsbench.byAnswerType.choice).toEqual({ questions: 3, correct: 2, accuracy: 2 / 3 });
    expect(summary.dsbench.byAnswerType.object).toEqual({ questions: 1, correct: 1, accuracy: 1 });
    // Choice questions: the judge and an exact letter match agree on all three.
    expect(summary.dsbench.judgeVsExactLetter).toEqual({ questions: 3, agree: 3, agreement: 1 });
    expect(readFileSync(path.join(run.runDir, 'dsbench-results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(7);
  });

  it('sends the original prompt: pandas text of every sheet, never the answer workbook; no workbook for theory questions', () => {
    const prompt = readFileSync(path.join(run.runDir, 'tasks', '00000101_question1', 'prompt.txt'), 'utf8');
    expect(
      prompt.startsWith('The workbook is detailed as follows. The excel file model.xlsx is: Sheet name: Revenue\n'),
    ).toBe(true);
    expect(prompt).toContain('Sheet name: Costs\n     Item  Amount\n     Rent    4000\n');
    expect(prompt).not.toContain('SECRET');
    expect(prompt).toContain('The questions are detailed as follows. \n In which year');
    const xlsm = readFileSync(path.join(run.runDir, 'tasks', '00000102_question1', 'prompt.txt'), 'utf8');
    expect(xlsm).toContain('The excel file words.xlsm is: Sheet name: Words\n');
    const theory = readFileSync(path.join(run.runDir, 'tasks', '00000103_question1', 'prompt.txt'), 'utf8');
    expect(theory.startsWith('The introduction is detailed as follows. \n Theory questions')).toBe(true);
    // The workbook text is prepared once per competition, in the run folder.
    expect(readdirSync(path.join(run.runDir, 'dsbench', 'workbooks')).sort()).toEqual([
      '00000101.txt',
      '00000102.txt',
      '00000103.txt',
    ]);
  });

  it('writes the report (by competition, by answer type, cost) and an Inspect log the real inspect_ai reads', async () => {
    const written = await writeDsbenchReport({ runDir: run.runDir });
    const md = readFileSync(written.markdown, 'utf8');
    expect(md).toContain('| accuracy (question level) | 57.14% (4/7) |');
    expect(md).toContain('## Accuracy by competition');
    expect(md).toContain('| 00000101 | sample-revenue | 3 | 2 | 66.67% |');
    expect(md).toContain('| choice | 3 | 2 | 66.67% |');
    expect(readFileSync(written.html, 'utf8')).toContain('<h2>Accuracy by answer type</h2>');
    expect(path.basename(written.inspectLog)).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}[+-]\d{2}-\d{2}_DSBench_\w{22}\.json$/,
    );
    const read = JSON.parse(execFileSync(INSPECT_PYTHON, ['-c', VALIDATE, written.inspectLog], { encoding: 'utf8' }));
    expect(read.status).toBe('success');
    expect(read.task).toBe('DSBench');
    expect(read.header_samples).toBeNull();
    expect(read.ids).toHaveLength(7);
    expect(read.competitions).toEqual(['00000101', '00000102', '00000103']);
    expect(read.targets['00000101_question2']).toBe('14500');
    expect(read.targets['00000102_question1']).toBe(
      'Q = 1, # of words = 3, Xth word = ALIBI, Highest Word = BIALY, Highest Score = 21',
    );
    expect(read.values['00000101_question1']).toBe('C');
    expect(read.values['00000102_question2']).toBe('I');
    expect(read.metrics.accuracy).toBeCloseTo(4 / 7, 9);
    expect(read.metrics.competition_accuracy).toBeCloseTo((2 / 3 + 1 / 2 + 1 / 2) / 3, 9);
  }, 120_000);

  it('asks the answering model and the judge exactly once per question (system prompt, temperature 0)', () => {
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
    const answered = env.llm.log.filter((e) => e.answered);
    expect(answered.filter((e) => e.callKey?.endsWith('/answer'))).toHaveLength(7);
    expect(answered.filter((e) => e.callKey?.endsWith('/judge'))).toHaveLength(7);
    const answer = answered.find((e) => e.callKey?.endsWith('00000101_question1/answer'))!;
    expect(answer.messages[0]).toEqual({
      role: 'system',
      content:
        'You are a data analyst. I will give  you a background introduction and data analysis question. You must answer the question.  ',
    });
    const judge = answered.find((e) => e.callKey?.endsWith('00000101_question1/judge'))!;
    expect(judge.model).toBe('gpt-4o-2024-05-13');
    expect(judge.messages).toHaveLength(1);
    expect(judge.messages[0].content).toContain('True answer: C\n');
    expect(existsSync(path.join(run.runDir, 'tasks', '00000101_question1', 'judgment.json'))).toBe(true);
  });

  it("show: the question, the expected answer, the model's reply, the judge's verdict and reply", async () => {
    const view = await dsbenchTaskView(run.runDir, '00000101_question3');
    const result = readJson(path.join(run.runDir, 'results', '00000101_question3.json'));
    expect(view).toMatchObject({ taskId: '00000101_question3', status: 'scored', soft: 0, hard: 0 });
    // A numeric question (no exact letter match to record).
    expect(view.question).toEqual({
      question: 'By how much did revenue grow from 2014 to 2016, in percent (3 decimals)?',
      expected: '31.579%',
      reply: result.predicted,
      verdict: 'incorrect',
      judgeModel: 'gpt-4o-2024-05-13',
      judgeReply: 'False',
    });
    expect(view.trajectory.map((s) => s.stage)).toEqual(['answer', 'judge']);
    expect(view.trajectory[0].exchanges[0].prompt).toBe(
      readFileSync(path.join(run.runDir, 'tasks', '00000101_question3', 'prompt.txt'), 'utf8'),
    );
    await expect(dsbenchTaskView(run.runDir, 'nope')).rejects.toThrow(/has no task "nope"/);
  });

  it('rejudge judges only the unparseable answer again, without asking the answering model', async () => {
    env.llm.setScript({ rules: [{ name: 'judge-again', match: { callKey: /\/judge#/ }, reply: 'True' }] });
    const started = await rejudgeToEnd(env, run.runDir, { tag: 'rejudge-1' });
    expect(started.count).toBe(1);
    expect(readJson(path.join(run.runDir, 'results', '00000102_question2.json'))).toMatchObject({
      verdict: 'correct',
      judgeReply: 'True',
      llmCalls: 3,
    });
    const summary = readJson(path.join(run.runDir, 'summary.json'));
    expect(summary.dsbench).toMatchObject({ correct: 5, unparseableJudgments: 0 });
    const answered = env.llm.log.filter((e) => e.answered).map((e) => e.callKey!);
    expect(answered.filter((k) => k.endsWith('/answer'))).toHaveLength(7);
    expect(answered.filter((k) => k.includes('/judge#rejudge-1'))).toEqual([
      `${run.runId}/00000102_question2/judge#rejudge-1`,
    ]);
  }, 120_000);

  it('rejudge --judge-model judges every answer with that model', async () => {
    const started = await rejudgeToEnd(env, run.runDir, { judgeModel: 'judge-2', tag: 'rejudge-2' });
    expect(started.count).toBe(7);
    const calls = env.llm.log.filter((e) => e.answered && e.callKey!.includes('/judge#rejudge-2'));
    expect(calls.map((e) => e.model)).toEqual(Array(7).fill('judge-2'));
    expect(readJson(path.join(run.runDir, 'summary.json')).dsbench.correct).toBe(7);
    expect(env.llm.log.filter((e) => e.answered && e.callKey!.endsWith('/answer'))).toHaveLength(7);
    // Its record beside its task list: asked for judge-2, and the judgments say judge-2 judged all seven.
    const ids = readJson(path.join(run.runDir, 'rejudge-2.json'));
    expect(ids).toHaveLength(7);
    expect(readJson(path.join(run.runDir, 'rejudge-2.judge.json'))).toMatchObject({
      tag: 'rejudge-2',
      state: 'finished',
      requested: { model: 'judge-2' },
      judgeModel: 'judge-2',
      tasks: ids,
      settings: [{ judge: { model: 'judge-2' }, tasks: ids }],
      withoutCall: [],
    });
  }, 120_000);
});
