/**
 * SpreadsheetBench 2 Visualization judged inside runs, end to end: generated v2-layout Visualization tasks (a chart, an
 * output without any chart, an output that is no workbook), the paper's scaffold driven by a scripted model, and the
 * vision judge on the same scripted server (real HTTP, the real openai client, charts exported by LibreOffice). A
 * worker in its own process is killed with kill -9 while the judge's call is in flight: the task ends with one
 * judgment, the judge answered once. `rejudge` after the judge's scripted verdict changed (a first reply that leaves an
 * item out, then the repair call asking for it, as the release does) re-judges without running the
 * agent. A run whose worker has no vision judge says its Visualization tasks are unjudged, and `bin/sheetbench rejudge`
 * judges them.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered, type ScriptedRequest } from '../../lib/scriptedLlm';
import { configSchema, type Config } from '../../config/schema';
import type { RunProgress } from '../../contracts/run';
import { recordRejudgeSettings, startRejudge } from '../../client/startRejudge';
import { readManifest } from '../../lib/runStore/manifest';
import { FAST_FAILOVER, startBenchmarkRun, workerProcessEnv, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { waitUntil } from '../helpers/wait';
import { HeldJudge } from '../helpers/heldJudge';
import { withWorkers } from '../helpers/withWorkers';
import { spawnWorker } from '../helpers/workerProcess';
import { runCli } from '../helpers/cliProcess';
import { hasSandboxPython } from '../scoring/oracle';
import { startVisionJudgeE2E, VIS_TASKS, visualizationScript } from '../helpers/visualizationTasks';
import {
  chartOnlyCandidate,
  generateOutputImageTask,
  generateTwoChartsTask,
  passEveryAsked,
  twoChartsCandidate,
} from '../helpers/visualizationCharts';
import { spreadsheetBench2, v2Run } from '../../benchmarks/spreadsheetbench2';
import { adapterRunDirOf } from '../../benchmarks/spreadsheetbench2/checkedVote/adapterFolder';
import { chartSummaries } from '../../benchmarks/workbook/chartParts';
import { readChartJudgment } from '../../benchmarks/spreadsheetbench2/visualization/chartJudgment';
import { v2JudgeSettingsOf } from '../../benchmarks/spreadsheetbench2/visualization/judgeSettings';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-visrun-'));
const data = path.join(tmp, 'Visualization');
const KEY_ENV = 'SB2_VISRUN_TEST_VLM_KEY';
/** The judge's verdict per request (changed by the rejudge test), and a gate that holds its first call for the kill. */
let verdict: (request: ScriptedRequest) => string = () => '{"pass_ids": [1, 2, 3], "fail": []}';
const judge = new HeldJudge((request) => verdict(request));
const vis = visualizationScript(judge.reply);
const script = { ...vis, rules: [...vis.rules, chartOnlyCandidate, twoChartsCandidate] };

const judgeCalls = (env: E2EEnv, runId: string) =>
  env.llm.log.filter((e) => e.callKey?.startsWith(`${runId}/`) && e.callKey.includes('/chart-judge'));
const scaffoldCalls = (env: E2EEnv, runId: string) =>
  env.llm.log.filter((e) => e.answered && e.callKey?.startsWith(`${runId}/`) && e.callKey.includes('/scaffold/'));

/** In-process workers with `config` until `work` ends. */
async function rejudge(env: E2EEnv, runDir: string, config: Config, all: boolean) {
  const manifest = await readManifest(runDir);
  const started = await startRejudge(env.client, config, manifest, runDir, { all });
  if (!started) return 0;
  await withWorkers(config, () => started.handle.result());
  await recordRejudgeSettings(manifest, runDir, started.tag); // as the CLI does: else the rejudge stays unfinished
  return started.count;
}

describe.skipIf(!hasSandboxPython)('SpreadsheetBench 2 Visualization judged in runs', () => {
  let env: E2EEnv;
  let judged: StartedRun;
  let unjudgedConfig: Config;

  let close = async () => {};

  beforeAll(async () => {
    ({ env, close } = await startVisionJudgeE2E(script, { data, tmp }, KEY_ENV, judge, {
      ...FAST_FAILOVER,
      llm: { prices: { 'scripted-vision': { inputPerMTok: 1, outputPerMTok: 2 } } },
    }));
    unjudgedConfig = configSchema.parse({ ...env.config, visionJudge: { model: 'scripted-vision' } });
  }, 120_000);
  afterAll(() => close());

  it('judges the charts in the run; a kill -9 during the judge call resumes without a second answered call', async () => {
    judged = await startBenchmarkRun(env, { dataset: data, agent: 'swe_agent', tasks: VIS_TASKS });
    let worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    await waitUntil(() => judge.arrived, 400_000, 'the judge call of vis_bar held');
    worker.crash();
    await worker.exited;
    judge.open(); // the held request now sees its client gone: 499, not answered
    worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    let progress: RunProgress;
    try {
      progress = (await judged.handle.result()) as RunProgress;
    } finally {
      worker.crash();
    }
    const calls = judgeCalls(env, judged.runId);
    expect(calls.map((c) => [c.callKey, c.status, c.answered])).toEqual([
      [`${judged.runId}/vis_bar/chart-judge`, 499, false],
      [`${judged.runId}/vis_bar/chart-judge`, 200, true],
    ]);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
    const bar = await readChartJudgment(judged.runDir, 'vis_bar');
    expect(bar).toMatchObject({
      verdict: 'judged',
      score: 1,
      accuracy: 1,
      model: 'scripted-vision',
      callKey: `${judged.runId}/vis_bar/chart-judge`,
      images: [{ label: 'Data chart 1' }],
    });
    expect(bar?.costUsd).toBeGreaterThan(0);
    // The settings it was judged with, as run.json recorded them when the run was created: the endpoint by its host.
    const settings = v2JudgeSettingsOf(env.config.visionJudge);
    expect(settings).toMatchObject({ model: 'scripted-vision', baseUrlHost: new URL(env.llm.url).host });
    expect(bar?.judge).toEqual(settings);
    expect((await readManifest(judged.runDir)).judge).toEqual(settings);
    // The run's spend counts the judge's call (the scripted agent's model has no price): 6 agent calls and 1 judge call.
    expect(progress.costUsd).toBeCloseTo(bar!.costUsd!, 12);
    expect(progress.llmCalls).toBe(7);
    expect(calls[1].images).toHaveLength(1);
    expect(calls[1].messages[1].content).toContain('1. a bar chart of the values');
  }, 900_000);

  it('names the task whose output has no chart, and the one whose output is no workbook', async () => {
    expect(await readChartJudgment(judged.runDir, 'vis_plain')).toMatchObject({
      verdict: 'no_charts',
      accuracy: 0,
      message: 'task vis_plain: its output vis_plain_output.xlsx holds no chart',
    });
    const broken = await readChartJudgment(judged.runDir, 'vis_broken');
    expect(broken).toMatchObject({ verdict: 'export_failed', accuracy: 0 });
    expect(broken?.message).toMatch(/^task vis_broken: its output's charts could not be exported: .*load failed/);
    expect((await spreadsheetBench2.describeTask!(judged.runDir, 'vis_broken')).notes).toContainEqual(
      expect.stringMatching(
        /^chart judgment \(vision checklist > 0\.7, scripted-vision\): export_failed: task vis_broken: /,
      ),
    );
  });

  it('reports the chart accuracy and the judge spend in the summary and the report', async () => {
    const lines = await spreadsheetBench2.summaryLines(judged.runDir);
    const chartLine = lines.find((l) => l.startsWith('Visualization charts:'));
    expect(chartLine).toMatch(
      /^Visualization charts: 3 of 3 tasks judged, chart accuracy 33\.33% \(judged 1, no_charts 1, export_failed 1\); judge: 1 calls, \$0\.\d{4}$/,
    );
    expect(lines.some((l) => l.includes('UNJUDGED'))).toBe(false);
    const summary = JSON.parse(readFileSync(path.join(judged.runDir, 'summary.json'), 'utf8')) as {
      costUsd: number;
      charts: { judgeCostUsd: number };
    };
    expect(summary.charts.judgeCostUsd).toBeGreaterThan(0);
    expect(summary.costUsd).toBeGreaterThanOrEqual(summary.charts.judgeCostUsd);
    // The report gives the same line.
    const report = await spreadsheetBench2.writeReport({ runDir: judged.runDir, outDir: path.join(tmp, 'report') });
    expect(readFileSync(report.markdown, 'utf8')).toContain(
      `## Visualization charts\n\n| judging |\n|---|\n| ${chartLine} |\n\n`,
    );
  });

  it('rejudge after the verdict changed re-judges the charts, never the agent', async () => {
    const agentCalls = scaffoldCalls(env, judged.runId).length;
    const resultFile = path.join(judged.runDir, 'results', 'vis_bar.json');
    const resultBefore = statSync(resultFile).mtimeMs;
    expect(await rejudge(env, judged.runDir, env.config, false)).toBe(0); // nothing unparseable, failed or unjudged
    // The first reply leaves item 3 out; the repair, asked for item 3 only, fails it (the release's repair round).
    verdict = (request) =>
      /^1\. /m.test(request.lastUser)
        ? '{"pass_ids": [1, 2], "fail": []}'
        : '{"pass_ids": [], "fail": [{"id": 3, "reason": "bars missing"}]}';
    expect(await rejudge(env, judged.runDir, env.config, true)).toBe(3);
    const bar = await readChartJudgment(judged.runDir, 'vis_bar');
    expect(bar).toMatchObject({ verdict: 'judged', accuracy: 0, missing: [], rounds: 2 });
    expect(bar?.items).toEqual([
      { id: 1, pass: true },
      { id: 2, pass: true },
      { id: 3, pass: false, reason: 'bars missing' },
    ]);
    expect(bar?.score).toBeCloseTo(2 / 3, 10);
    expect(bar?.callKey).toMatch(new RegExp(`^${judged.runId}/vis_bar/chart-judge#rejudge-`));
    expect(scaffoldCalls(env, judged.runId)).toHaveLength(agentCalls);
    const answered = judgeCalls(env, judged.runId).filter((c) => c.answered);
    expect(answered.map((c) => c.callKey!.replace(/#.*/, ''))).toEqual([
      `${judged.runId}/vis_bar/chart-judge`,
      `${judged.runId}/vis_bar/chart-judge`,
      `${judged.runId}/vis_bar/chart-judge/repair-1`,
    ]);
    expect(answered[2].messages[1].content).toMatch(/\n3\. one bar per row$/);
    expect(answered[2].messages[1].content).not.toMatch(/^1\. /m);
    expect(statSync(resultFile).mtimeMs).toBe(resultBefore);
    const lines = await spreadsheetBench2.summaryLines(judged.runDir);
    const view = await spreadsheetBench2.describeTask!(judged.runDir, 'vis_bar');
    expect(view.notes).toContain(
      'chart judgment (vision checklist > 0.7, scripted-vision): judged: score 0.67, accuracy 0; failed items: 3 (bars missing)',
    );
    // vis_bar's judgment took 2 calls (the first and one repair); the others had nothing to judge.
    expect(lines.find((l) => l.startsWith('Visualization charts:'))).toMatch(
      /chart accuracy 0\.00% .*; judge: 2 calls, /,
    );
  }, 600_000);

  it('a run without a vision judge says its Visualization tasks are unjudged; rejudge then judges them', async () => {
    verdict = () => '{"pass_ids": [1, 2, 3], "fail": []}';
    const run = await startBenchmarkRun(env, { dataset: data, agent: 'swe_agent', tasks: ['vis_bar'] });
    await withWorkers(unjudgedConfig, () => run.handle.result());
    const createdJudge = (await readManifest(run.runDir)).judge;
    expect(judgeCalls(env, run.runId)).toEqual([]);
    expect(await readChartJudgment(run.runDir, 'vis_bar')).toEqual(
      expect.objectContaining({
        verdict: 'unjudged',
        message: 'task vis_bar: not judged: no vision judge is configured (set visionJudge.baseUrl, then run rejudge)',
      }),
    );
    expect((await readChartJudgment(run.runDir, 'vis_bar'))?.accuracy).toBeUndefined();
    const lines = await spreadsheetBench2.summaryLines(run.runDir);
    expect(lines).toContain(
      '  UNJUDGED: 1 Visualization task(s) have no chart verdict (not counted as pass or fail): no vision judge is configured (set visionJudge.baseUrl, then run rejudge)',
    );
    expect(lines.find((l) => l.startsWith('Visualization charts:'))).toMatch(
      /^Visualization charts: 0 of 1 tasks judged \(unjudged 1\)/,
    );
    expect(lines.some((l) => l.startsWith('chart accuracy'))).toBe(false);
    // `bin/sheetbench rejudge` as a user runs it, its worker in its own process with the judge configured.
    const cli = await runCli(['rejudge', run.runDir], { cwd: tmp, env: workerProcessEnv(env) });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stderr).toContain(`re-judging 1 tasks of run ${run.runId}`);
    expect(cli.stdout).toMatch(/^Visualization charts: 1 of 1 tasks judged, chart accuracy 100\.00% \(judged 1\)/m);
    expect(await readChartJudgment(run.runDir, 'vis_bar')).toMatchObject({ verdict: 'judged', accuracy: 1 });
    expect((await spreadsheetBench2.summaryLines(run.runDir)).some((l) => l.includes('UNJUDGED'))).toBe(false);
    // The rejudge recorded what it judged with beside its task list; run.json keeps the settings it was created with.
    const records = readdirSync(run.runDir).filter((f) => /^rejudge-.*\.judge\.json$/.test(f));
    expect(records).toHaveLength(1);
    const record = JSON.parse(readFileSync(path.join(run.runDir, records[0]), 'utf8')) as unknown;
    expect(record).toMatchObject({
      settings: [{ judge: v2JudgeSettingsOf(env.config.visionJudge), tasks: ['vis_bar'] }],
      withoutCall: [],
    });
    expect((await readManifest(run.runDir)).judge).toEqual(createdJudge);
  }, 600_000);

  it('checked_vote: candidates that only add the chart pass its checks (a chart is a change), are submitted and judged', async () => {
    verdict = () => '{"pass_ids": [1, 2, 3], "fail": []}';
    judge.open(); // held only for the kill of the first test (which may not have run)
    const run = await startBenchmarkRun(env, { dataset: data, agent: 'checked_vote', tasks: ['vis_bar'] });
    await withWorkers(env.config, () => run.handle.result());
    const cv = path.join(adapterRunDirOf(run.runDir, 'vis_bar'), 'tasks', 'vis_bar', 'checked-vote');
    const checks = readdirSync(path.join(cv, 'checks')).map(
      (f) => JSON.parse(readFileSync(path.join(cv, 'checks', f), 'utf8')) as { passed: boolean; problems: unknown[] },
    );
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.map((c) => [c.passed, c.problems])).toEqual(checks.map(() => [true, []]));
    const vote = JSON.parse(readFileSync(path.join(cv, 'vote.json'), 'utf8')) as { chosen?: string };
    expect(vote.chosen).toMatch(/^cand-/);
    // The submission is the v2 output, with its chart; the chart is judged.
    expect(chartSummaries((await v2Run(run.runDir)).files.outputPath('vis_bar'))).toHaveLength(1);
    expect(await readChartJudgment(run.runDir, 'vis_bar')).toMatchObject({ verdict: 'judged', accuracy: 1 });
  }, 900_000);

  it('an output with two charts is judged chart by chart: one call per chart the checklist names, one for the rest', async () => {
    verdict = passEveryAsked;
    judge.open();
    const two = path.join(tmp, 'two', 'Visualization');
    generateTwoChartsTask(two);
    const run = await startBenchmarkRun(env, { dataset: two, agent: 'checked_vote', tasks: ['vis_two'] });
    const started = Date.now();
    await withWorkers(env.config, () => run.handle.result());
    const calls = judgeCalls(env, run.runId).filter((c) => c.answered);
    const items = (c: (typeof calls)[number]) =>
      [...String(c.messages[1].content).matchAll(/^(\d+)\. /gm)].map((m) => m[1]);
    expect(calls.map((c) => [c.callKey, c.images?.length, items(c)])).toEqual([
      [`${run.runId}/vis_two/chart-judge/chart-group-1`, 1, ['1']],
      [`${run.runId}/vis_two/chart-judge/chart-group-2`, 1, ['2']],
      [`${run.runId}/vis_two/chart-judge/chart-group-3`, 2, ['3']],
    ]);
    const judgment = await readChartJudgment(run.runDir, 'vis_two');
    expect(judgment).toMatchObject({ verdict: 'judged', score: 1, accuracy: 1, rounds: 3 });
    expect(judgment?.images.map((i) => i.label)).toEqual(['Data chart 1', 'Data chart 2']);
    // Measured on this fixture: what the judge was sent, per call and in all (the run took this long end to end).
    const sent = calls.map((c) => (c.images ?? []).reduce((n, image) => n + image.bytes, 0));
    process.stderr.write(
      `vis_two judged in ${calls.length} calls; image bytes per call ${sent.join(', ')}, ${sent.reduce((a, b) => a + b, 0)} in all; run ${Date.now() - started} ms\n`,
    );
  }, 900_000);
  it('an <id>_output.png the agent left beside its workbook is judged alone, as the release prefers it', async () => {
    verdict = passEveryAsked;
    judge.open();
    const dir = path.join(tmp, 'png', 'Visualization');
    generateOutputImageTask(dir);
    const run = await startBenchmarkRun(env, { dataset: dir, agent: 'swe_agent', tasks: ['vis_png'] });
    await withWorkers(env.config, () => run.handle.result());
    const files = (await v2Run(run.runDir)).files;
    const image = readFileSync(files.outputImagePath('vis_png'));
    expect(image.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // The workbook holds two titled charts (which alone would be judged in three calls); the image wins.
    expect(chartSummaries(files.outputPath('vis_png'))).toHaveLength(2);
    const calls = judgeCalls(env, run.runId).filter((c) => c.answered);
    expect(calls.map((c) => [c.callKey, c.images?.map((i) => i.bytes)])).toEqual([
      [`${run.runId}/vis_png/chart-judge`, [image.length]],
    ]);
    expect(await readChartJudgment(run.runDir, 'vis_png')).toMatchObject({ verdict: 'judged', accuracy: 1 });
    const stored = JSON.parse(
      readFileSync(path.join(run.runDir, 'tasks', 'vis_png', 'charts', 'charts.json'), 'utf8'),
    ) as { source: string; charts: { label: string }[] };
    expect([stored.source, stored.charts.map((c) => c.label)]).toEqual(['png_output', ['vis_png_output.png']]);
  }, 900_000);
});
