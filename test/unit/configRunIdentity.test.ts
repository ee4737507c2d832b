import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load';
import { createRun, planRun } from '../../client/createRun';
import { experimentDifferences } from '../../client/experiment';
import { dsbenchSettingsOf } from '../../benchmarks/dsbench/settings';
import { experimentHash, readManifest, type RunManifest } from '../../lib/runStore/manifest';

const FIXTURES = path.resolve(__dirname, '../fixtures/config');
const REPO = path.resolve(__dirname, '../..');

/**
 * run.json files written by the version before the config rename (test/fixtures/config/*-run-before-rename.json, made
 * by that version's createRun from config files using the old keys), placed in a run folder that points at this
 * checkout's copy of the same dataset.
 */
function oldRun(name: string, dataset: string): string {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'sb-oldrun-'));
  const recorded = JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as RunManifest;
  writeFileSync(path.join(runDir, 'run.json'), JSON.stringify({ ...recorded, datasetDir: path.join(REPO, dataset) }));
  return runDir;
}

function configFrom(file: object): ReturnType<typeof loadConfig> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-cfg-'));
  writeFileSync(path.join(dir, 'sheetbench.config.json'), JSON.stringify(file));
  return loadConfig({}, {}, dir, () => undefined);
}

async function newRun(config: ReturnType<typeof loadConfig>, dataset: string, agent: string): Promise<RunManifest> {
  const runDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-newrun-')), 'run');
  mkdirSync(runDir);
  return (await createRun(config, await planRun({ datasetDir: path.join(REPO, dataset), agent }), { runDir })).manifest;
}

describe('runs recorded before the config rename load, resume as the same experiment, and match new runs', () => {
  it('a SpreadsheetBench run.json of the old version loads and a resume sees no difference', async () => {
    const manifest = await readManifest(oldRun('spreadsheetbench-run-before-rename.json', 'data/sample'));
    expect(manifest.agentSettings).toMatchObject({ maxTurns: 7, maxRevisions: 2, previewRows: 4 });
    expect(await experimentDifferences(manifest, { model: 'gpt-4o-mini', scoringMode: 'strict' })).toEqual([]);
  });

  it('the same settings under old or new keys make the experiment hash the old version recorded', async () => {
    const recorded = await readManifest(oldRun('spreadsheetbench-run-before-rename.json', 'data/sample'));
    const llm = { model: 'gpt-4o-mini', baseUrl: 'http://127.0.0.1:9/v1', temperature: 0 };
    const oldKeys = configFrom({
      run: { concurrency: 2, maxTurns: 7, maxRevisions: 2, previewRows: 4, scoringMode: 'strict' },
      llm,
    });
    const newKeys = configFrom({
      run: { concurrency: 2 },
      spreadsheetbench: { maxSteps: 7, maxRevisions: 2, previewRows: 4, scoringMode: 'strict' },
      llm,
    });
    for (const config of [oldKeys, newKeys])
      expect((await newRun(config, 'data/sample', 'row_exec')).experimentHash).toBe(recorded.experimentHash);
  });

  it('a DSBench run.json of the old version keeps its settings; new keys make the same experiment', async () => {
    const recorded = await readManifest(oldRun('dsbench-run-before-rename.json', 'data/dsbench-sample'));
    expect(dsbenchSettingsOf(recorded)).toMatchObject({ agentMaxRounds: 3, contextLimit: 32000 });
    expect(await experimentDifferences(recorded, {})).toEqual([]);
    const now = await newRun(
      configFrom({
        dsbench: { maxSteps: 3 },
        llm: { model: 'my-model', baseUrl: 'http://127.0.0.1:9/v1', contextWindows: { 'my-model': 32000, '*': 64000 } },
      }),
      'data/dsbench-sample',
      'agent',
    );
    const settingsNow = dsbenchSettingsOf(now);
    // The judge template is recorded as an absolute path (the old version's checkout was elsewhere); all else is equal.
    expect(settingsNow).toEqual({ ...dsbenchSettingsOf(recorded), judgeTemplate: settingsNow.judgeTemplate });
    const recordedHere = {
      ...recorded,
      benchmarkSettings: { ...recorded.benchmarkSettings, judgeTemplate: settingsNow.judgeTemplate },
    };
    expect(now.experimentHash).toBe(experimentHash(recordedHere));
  });
});
