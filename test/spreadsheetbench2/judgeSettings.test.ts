/**
 * The vision judge's settings of a SpreadsheetBench 2 run: recorded in run.json when the run is created (model, the
 * endpoint's host only, prompt version, rules commit; never the key, nor a path, query or credentials of the URL) and
 * in each chart judgment (what the worker judged with); `show` prints them on a Visualization task, `compare` on each
 * run, and warns when two runs were judged differently. Runs are built without an agent (v2RunFolder.ts) on the
 * generated tasks (fixtures/make_v2_tasks.py); their judgments are written as the judge activity writes them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliOutput } from '../helpers/cliOutput';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchmarkNamed } from '../../benchmarks';
import { configSchema } from '../../config/schema';
import { createRun, planRun } from '../../client/createRun';
import { experimentHash, readManifest } from '../../lib/runStore/manifest';
import { registerCompareCommand } from '../../cli/commands/compare';
import { registerShowCommand } from '../../cli/commands/show';
import { writeChartJudgment } from '../../benchmarks/spreadsheetbench2/visualization/chartJudgment';
import {
  JUDGE_PROMPT_VERSION,
  JUDGE_RULES_COMMIT,
  v2JudgeSettingsOf,
} from '../../benchmarks/spreadsheetbench2/visualization/judgeSettings';
import { judgeDifferences, judgeSettingsText } from '../../benchmarks/report/comparison';
import { hasSandboxPython, runPython } from '../scoring/oracle';
import { buildV2Run } from './v2RunFolder';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-judge-settings-'));
const runsDir = path.join(tmp, 'runs');
const dataset = path.join(tmp, 'data');
const KEY = 'sk-secret-judge-key-123';
const URL_WITH_SECRETS = `https://user:pw@open.bigmodel.cn:8443/api/paas/v4?key=${KEY}`;
const visionConfig = (extra: Record<string, unknown>) =>
  configSchema.parse({ visionJudge: { baseUrl: URL_WITH_SECRETS, ...extra } }).visionJudge;

afterAll(() => rmSync(tmp, { recursive: true, force: true }));
beforeAll(async () => {
  if (!hasSandboxPython) return;
  runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
  for (const runId of ['glm', 'gpt', 'glm-again']) {
    const runDir = await buildV2Run(runsDir, { runId, dataset, variants: path.join(tmp, 'outputs') });
    // Run glm's run.json records its judge, as createRun records it (read once per process: written before).
    const manifest = JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as Record<string, unknown>;
    const judge = runId === 'glm' ? { judge: v2JudgeSettingsOf(visionConfig({ model: 'glm-4.6v' })) } : {};
    writeFileSync(path.join(runDir, 'run.json'), JSON.stringify({ ...manifest, ...judge }));
    await benchmarkNamed('spreadsheetbench2').finalize(path.join(runsDir, runId));
  }
}, 180_000);

/** vis0's judgment as judgeCharts writes it, judged with these settings. */
async function judged(runId: string, settings: ReturnType<typeof v2JudgeSettingsOf>): Promise<void> {
  await writeChartJudgment(path.join(runsDir, runId), {
    taskId: 'vis0',
    verdict: 'judged',
    accuracy: 1,
    score: 1,
    model: settings.model,
    judge: settings,
    items: [],
  });
}

describe('the judge settings recorded', () => {
  it('keep the host of the base URL only: no key, path, query or credentials; none without a judge', () => {
    const settings = v2JudgeSettingsOf(visionConfig({ model: 'glm-4.6v' }));
    expect(settings).toEqual({
      model: 'glm-4.6v',
      baseUrlHost: 'open.bigmodel.cn:8443',
      promptVersion: JUDGE_PROMPT_VERSION,
      rulesCommit: JUDGE_RULES_COMMIT,
      temperature: 0.1,
      maxTokens: 4096,
    });
    for (const secret of [KEY, 'user', 'pw', 'api/paas']) expect(JSON.stringify(settings)).not.toContain(secret);
    expect(v2JudgeSettingsOf(configSchema.parse({}).visionJudge).baseUrlHost).toBeNull();
    expect(v2JudgeSettingsOf(visionConfig({}), 'gpt-4o').model).toBe('gpt-4o');
  });
});

describe.skipIf(!hasSandboxPython)('a v2 run judged with other settings', () => {
  it('run.json records the judge of a new run, outside the experiment hash', async () => {
    const config = configSchema.parse({ visionJudge: { baseUrl: URL_WITH_SECRETS, model: 'glm-4.6v' } });
    const plan = await planRun({ datasetDir: dataset });
    const { runDir, manifest } = await createRun(config, plan, { runDir: path.join(tmp, 'created'), runId: 'created' });
    expect(manifest.judge).toEqual(v2JudgeSettingsOf(config.visionJudge));
    const raw = readFileSync(path.join(runDir, 'run.json'), 'utf8');
    expect(raw).toContain('"baseUrlHost": "open.bigmodel.cn:8443"');
    for (const secret of [KEY, 'user:pw', 'api/paas']) expect(raw).not.toContain(secret);
    const read = await readManifest(runDir);
    const { runId: _r, createdAt: _c, experimentHash: recorded, judge: _j, ...defining } = read;
    expect(experimentHash({ ...defining, datasetDir: manifest.datasetDir })).toBe(recorded);
    expect(experimentHash({ ...defining, datasetDir: manifest.datasetDir, judge: { model: 'other' } })).toBe(recorded);
  });

  it('show prints what the task was judged with, else what run.json recorded', async () => {
    const runDir = path.join(runsDir, 'glm');
    const configured = `model glm-4.6v, host open.bigmodel.cn:8443, prompt ${JUDGE_PROMPT_VERSION}, rules ${JUDGE_RULES_COMMIT}, temperature 0.1, maxTokens 4096`;
    expect(await cliOutput(registerShowCommand, ['show', runDir, 'vis0'])).toContain(
      `judge settings of the run (run.json): ${configured}`,
    );
    await judged('glm', v2JudgeSettingsOf(visionConfig({ model: 'glm-4.6v' })));
    expect(await cliOutput(registerShowCommand, ['show', runDir, 'vis0'])).toContain(`judged with: ${configured}`);
    // A task of another category has no judge.
    expect(await cliOutput(registerShowCommand, ['show', runDir, 'fm0'])).not.toContain('judge');
  });

  it('compare prints each run’s judge and warns when two runs were judged differently', async () => {
    await judged('glm', v2JudgeSettingsOf(visionConfig({ model: 'glm-4.6v' })));
    await judged('glm-again', v2JudgeSettingsOf(visionConfig({ model: 'glm-4.6v' })));
    await judged('gpt', v2JudgeSettingsOf(visionConfig({ model: 'gpt-4o', baseUrl: 'https://api.openai.com/v1' })));
    const dirs = ['glm', 'gpt', 'glm-again'].map((r) => path.join(runsDir, r));

    const text = await cliOutput(registerCompareCommand, ['compare', ...dirs]);
    expect(text).toContain(`judge of gpt: model gpt-4o, host api.openai.com, prompt ${JUDGE_PROMPT_VERSION}`);
    expect(text).toContain(
      '  warning: A and B were judged differently (model: A glm-4.6v, B gpt-4o; host: A open.bigmodel.cn:8443, B api.openai.com): scores may differ for that alone',
    );
    // glm and glm-again were judged alike: their pair has no warning.
    const pairs = text.split('\nA = ').slice(1);
    expect(pairs.map((p) => p.startsWith('glm, B = gpt') && p.includes('warning'))).toEqual([true, false]);

    const json = JSON.parse(await cliOutput(registerCompareCommand, ['compare', '--json', ...dirs])) as {
      runs: { judge?: Record<string, string>[] }[];
      pairs: { judgeDiffers?: string[] }[];
    };
    expect(json.pairs.map((p) => p.judgeDiffers?.length ?? 0)).toEqual([2, 0]);
    expect(json.runs[1].judge).toEqual([expect.objectContaining({ model: 'gpt-4o', host: 'api.openai.com' })]);
    expect(JSON.stringify(json)).not.toContain(KEY);
  });
});

describe('judge differences', () => {
  it('a run partly re-judged with another model (two settings) differs from one judged once', () => {
    const glm = { model: 'glm-4.6v', host: 'open.bigmodel.cn' };
    const gpt = { model: 'gpt-4o', host: 'open.bigmodel.cn' };
    expect(judgeSettingsText([glm, gpt])).toBe(
      'model glm-4.6v, host open.bigmodel.cn | model gpt-4o, host open.bigmodel.cn',
    );
    expect(judgeDifferences([glm], [glm, gpt])).toEqual([
      'A model glm-4.6v, host open.bigmodel.cn; B model glm-4.6v, host open.bigmodel.cn | model gpt-4o, host open.bigmodel.cn',
    ]);
    expect(judgeDifferences([gpt, glm], [glm, gpt])).toEqual([]);
    expect(judgeDifferences([glm], [])).toEqual(['A model glm-4.6v, host open.bigmodel.cn; B not recorded']);
  });
});
