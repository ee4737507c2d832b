/**
 * `sheetbench rejudge` of a SpreadsheetBench 2 run killed with kill -9 mid-way (its CLI and in-process worker, while
 * the judge's call for vis_bar is in flight, after the tasks with nothing to judge may have been judged), then run
 * again as a user would: the killed rejudge had recorded that it started (`<tag>.judge.json`, state `started`) before
 * any of its verdicts (the run's summary and report say it is unfinished), the rerun resumes it under the same tag instead of
 * starting another, the judge is answered once, and the record ends `finished` with the settings its judgments were
 * made with. A rejudge killed between its record and its workflow's start is started by the rerun under its tag;
 * another judge model is refused meanwhile.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered } from '../../lib/scriptedLlm';
import { configSchema } from '../../config/schema';
import { FAST_FAILOVER, startBenchmarkRun, workerProcessEnv, type E2EEnv } from '../helpers/e2e';
import { waitUntil } from '../helpers/wait';
import { HeldJudge } from '../helpers/heldJudge';
import { withWorkers } from '../helpers/withWorkers';
import { runCli, spawnKillableCli } from '../helpers/cliProcess';
import { hasSandboxPython } from '../scoring/oracle';
import { startVisionJudgeE2E, VIS_TASKS, visualizationScript } from '../helpers/visualizationTasks';
import { chartJudgmentPath, readChartJudgment } from '../../benchmarks/spreadsheetbench2/visualization/chartJudgment';
import { v2JudgeSettingsOf } from '../../benchmarks/spreadsheetbench2/visualization/judgeSettings';
import { recordRejudgeStart } from '../../lib/runStore/rejudgeRecord';
import { readManifest } from '../../lib/runStore/manifest';
import { spreadsheetBench2 } from '../../benchmarks/spreadsheetbench2';
import { EXIT } from '../../cli/exitCodes';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-rejudge-killed-'));
const data = path.join(tmp, 'Visualization');
const KEY_ENV = 'SB2_REJUDGE_KILLED_TEST_VLM_KEY';

/** The judge's first call is held until the test lets it go (after the kill); later calls are answered at once. */
const judge = new HeldJudge(() => '{"pass_ids": [1, 2, 3], "fail": []}');
const script = visualizationScript(judge.reply);

const rejudgeFiles = (runDir: string) =>
  readdirSync(runDir)
    .filter((f) => f.startsWith('rejudge-'))
    .sort();
const readRecord = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe.skipIf(!hasSandboxPython)('a SpreadsheetBench 2 rejudge killed with kill -9 mid-way', () => {
  let env: E2EEnv;
  let runDir = '';

  let close = async () => {};

  beforeAll(async () => {
    ({ env, close } = await startVisionJudgeE2E(script, { data, tmp }, KEY_ENV, judge, FAST_FAILOVER));
  }, 120_000);
  afterAll(() => close());

  it('left its started record before any verdict; the rerun resumes it, the judge answered once', async () => {
    // A run judged without a vision judge: every Visualization task unjudged, so rejudge takes all three.
    const unjudged = configSchema.parse({ ...env.config, visionJudge: { model: 'scripted-vision' } });
    const run = await startBenchmarkRun(env, { dataset: data, agent: 'swe_agent', tasks: VIS_TASKS });
    await withWorkers(unjudged, () => run.handle.result());
    runDir = run.runDir;
    const before = new Map(VIS_TASKS.map((id) => [id, statSync(chartJudgmentPath(run.runDir, id)).mtimeMs]));
    const summaryBefore = readFileSync(path.join(run.runDir, 'summary.json'), 'utf8');

    const cliEnv = workerProcessEnv(env);
    const killed = spawnKillableCli(['rejudge', run.runDir], { cwd: tmp, env: cliEnv });
    await waitUntil(() => judge.arrived, 400_000, `the judge call of vis_bar held (${killed.stderr()})`);
    killed.kill9();
    await killed.exited;
    judge.open(); // the held request now sees its client gone: 499, not answered

    // What the kill left: one task list and its started record, written before any judgment the rejudge wrote.
    const files = rejudgeFiles(run.runDir);
    expect(files).toHaveLength(2);
    const tag = files[0].replace(/\.json$/, '');
    expect(files).toEqual([`${tag}.json`, `${tag}.judge.json`]);
    const recordFile = path.join(run.runDir, `${tag}.judge.json`);
    const started = readRecord(recordFile);
    expect(started).toMatchObject({
      tag,
      state: 'started',
      requested: v2JudgeSettingsOf(env.config.visionJudge),
      tasks: VIS_TASKS,
      settings: [],
    });
    const recordWritten = statSync(recordFile).mtimeMs;
    for (const id of VIS_TASKS) {
      const written = statSync(chartJudgmentPath(run.runDir, id)).mtimeMs;
      if (written !== before.get(id)) expect(written, id).toBeGreaterThanOrEqual(recordWritten);
    }
    expect(await readChartJudgment(run.runDir, 'vis_bar')).toMatchObject({ verdict: 'unjudged' });
    expect(readFileSync(path.join(run.runDir, 'summary.json'), 'utf8')).toBe(summaryBefore);
    // What `show`, the summary and the report say of it meanwhile.
    const unfinished =
      `UNFINISHED: rejudge ${tag} of 3 Visualization task(s) stopped before its end: some of their judgments are ` +
      `new, the figures above are older; run \`sheetbench rejudge ${run.runDir}\` to finish it`;
    expect(await spreadsheetBench2.summaryLines(run.runDir)).toContain(`  ${unfinished}`);
    const report = await spreadsheetBench2.writeReport({ runDir: run.runDir, outDir: path.join(tmp, 'report') });
    expect(readFileSync(report.markdown, 'utf8')).toContain(`| ${unfinished} |`);

    // The rerun, as a user runs it: the same rejudge resumed and finished.
    const rerun = await runCli(['rejudge', run.runDir], { cwd: tmp, env: cliEnv });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`resuming the unfinished rejudge ${tag}: 3 tasks of run ${run.runId}`);
    expect(rerun.stdout).toMatch(/^Visualization charts: 3 of 3 tasks judged, chart accuracy 33\.33%/m);
    expect(rejudgeFiles(run.runDir)).toEqual(files);
    expect(rerun.stdout).not.toContain('UNFINISHED');
    const finished = readRecord(recordFile);
    expect(finished).toMatchObject({
      tag,
      state: 'finished',
      startedAt: started.startedAt,
      settings: [{ judge: v2JudgeSettingsOf(env.config.visionJudge), tasks: ['vis_bar'] }],
      withoutCall: ['vis_plain', 'vis_broken'],
    });
    expect(await readChartJudgment(run.runDir, 'vis_bar')).toMatchObject({
      verdict: 'judged',
      accuracy: 1,
      callKey: `${run.runId}/vis_bar/chart-judge#${tag}`,
    });
    const calls = env.llm.log.filter(
      (e) => e.callKey?.startsWith(`${run.runId}/`) && e.callKey.includes('/chart-judge'),
    );
    expect(calls.map((c) => [c.callKey, c.status, c.answered])).toEqual([
      [`${run.runId}/vis_bar/chart-judge#${tag}`, 499, false],
      [`${run.runId}/vis_bar/chart-judge#${tag}`, 200, true],
    ]);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);

    // Finished: the next rejudge is a new one (nothing left to judge without --all).
    const next = await runCli(['rejudge', run.runDir], { cwd: tmp, env: cliEnv });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain('nothing to re-judge');
  }, 900_000);

  it('killed after its record and before its workflow started: the rerun starts it under its tag', async () => {
    const { runId } = await readManifest(runDir);
    const tag = 'rejudge-killed-before-start';
    writeFileSync(path.join(runDir, `${tag}.json`), JSON.stringify(['vis_bar']));
    await recordRejudgeStart(runDir, tag, { requested: v2JudgeSettingsOf(env.config.visionJudge) });
    const cliEnv = workerProcessEnv(env);
    // Another judge model is refused while it is unfinished, naming it.
    const other = await runCli(['rejudge', runDir, '--judge-model', 'other-vision'], { cwd: tmp, env: cliEnv });
    expect(other.code).toBe(EXIT.usage);
    expect(other.stderr).toContain(`run ${runId} has an unfinished rejudge ${tag}`);
    const rerun = await runCli(['rejudge', runDir], { cwd: tmp, env: cliEnv });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`resuming the unfinished rejudge ${tag}: 1 tasks of run ${runId}`);
    expect(readRecord(path.join(runDir, `${tag}.judge.json`))).toMatchObject({
      state: 'finished',
      settings: [{ judge: v2JudgeSettingsOf(env.config.visionJudge), tasks: ['vis_bar'] }],
    });
    const answered = env.llm.log.filter((e) => e.answered && e.callKey === `${runId}/vis_bar/chart-judge#${tag}`);
    expect(answered).toHaveLength(1);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  }, 600_000);
});
