import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listRuns } from '../../client/runList';
import { taskResultSchema } from '../../contracts/taskResultSchema';
import { loadRunOutcomes } from '../../benchmarks/report/comparison/outcomes';
import { readCellDiffs } from '../../benchmarks/spreadsheetbench/scoringFacts';
import { CorruptFileError, readJsonIfPresent } from '../../lib/json';
import { readManifest } from '../../lib/runStore/manifest';

/** run.json as written before benchmarks, editions and repeats existed (no benchmark, edition, epochs). */
const OLD_MANIFEST = {
  runId: 'old-run',
  agent: 'single',
  setting: 'single',
  datasetDir: '/data/sample',
  datasetVersion: 'sample',
  scoringMode: 'official',
  createdAt: '2026-11-01T10:00:00.000Z',
  taskCount: 1,
  llm: { provider: 'openai', model: 'scripted-model', temperature: 0 },
  agentSettings: { maxTurns: 5, maxRevisions: 2, previewRows: 5, promptVersion: 'v1' },
  experimentHash: '0123456789abcdef',
};

/** results/39604.json as the v1 task workflow wrote it (test/replay/histories/v1-single-task-39604: no epoch, no failure). */
const V1_RESULT = {
  taskId: '39604',
  id: 39604,
  instructionType: 'Cell-Level Manipulation',
  testCaseResults: [1, 1, 1],
  soft: 1,
  hard: 1,
  llmCalls: 1,
  usage: { inputTokens: 479, outputTokens: 68 },
  costUsd: 0,
  stages: [
    {
      stage: 'generate',
      llmCalls: 1,
      usage: { inputTokens: 479, outputTokens: 68 },
      costUsd: 0,
      wallMs: 1821,
      outcome: 'ok',
    },
  ],
  reasons: [null, null, null],
  wallMs: 8468,
};

function runFolder(root: string, name: string, files: Record<string, string | object>): string {
  const dir = path.join(root, name);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content));
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sb-runread-'));
afterEach(() => vi.restoreAllMocks());

describe('run.json', () => {
  it('an old-format manifest still loads (benchmark defaults to spreadsheetbench)', async () => {
    const dir = runFolder(tmp(), 'r', { 'run.json': OLD_MANIFEST });
    const m = await readManifest(dir);
    expect([m.runId, m.benchmark, m.epochs]).toEqual(['old-run', 'spreadsheetbench', undefined]);
  });

  it('missing is "no run", corrupt is a CorruptFileError naming run.json and the problem', async () => {
    const root = tmp();
    await expect(readManifest(path.join(root, 'none'))).rejects.toThrow(/no run at .*none \(missing run.json\)/);
    const torn = runFolder(root, 'torn', { 'run.json': '{"runId": "x", ' });
    const err = await readManifest(torn).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorruptFileError);
    expect((err as Error).message).toMatch(new RegExp(`^${path.join(torn, 'run.json')}: not valid JSON`));
    const shape = runFolder(root, 'shape', { 'run.json': { ...OLD_MANIFEST, taskCount: 'one' } });
    await expect(readManifest(shape)).rejects.toThrow(/run\.json: unexpected content: taskCount: /);
  });

  it('the run list reports a corrupt run.json or summary.json and lists the rest; a folder without run.json is quiet', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const root = tmp();
    runFolder(root, 'good', {
      'run.json': { ...OLD_MANIFEST, runId: 'good' },
      'summary.json': { tasks: 1, costUsd: 2 },
    });
    runFolder(root, 'bad-summary', { 'run.json': { ...OLD_MANIFEST, runId: 'bad-summary' }, 'summary.json': '{' });
    runFolder(root, 'bad-run', { 'run.json': '{"runId":' });
    runFolder(root, 'not-a-run', { 'notes.txt': 'hello' });
    writeFileSync(path.join(root, 'stray-file'), 'x');
    const { runs } = await listRuns({ runsDir: root });
    expect(runs.map((r) => [r.id, r.costUsd]).sort()).toEqual([
      ['bad-summary', undefined],
      ['good', 2],
    ]);
    const warned = warn.mock.calls.map((c) => String(c[0])).sort();
    expect(warned).toEqual([
      expect.stringMatching(
        new RegExp(`${path.join(root, 'bad-run', 'run.json')}: not valid JSON.* — run not listed$`),
      ),
      expect.stringMatching(
        new RegExp(
          `${path.join(root, 'bad-summary', 'summary.json')}: not valid JSON.* — run listed without its scores$`,
        ),
      ),
    ]);
  });
});

describe('task results', () => {
  it('a v1 result (no epoch, no failure) still matches the schema', async () => {
    const dir = runFolder(tmp(), 'r', { 'results/39604.json': V1_RESULT });
    expect(await readJsonIfPresent(path.join(dir, 'results/39604.json'), taskResultSchema)).toEqual(V1_RESULT);
  });

  it('a corrupt result is an error naming the file, not a task left out of the comparison', async () => {
    const dir = runFolder(tmp(), 'r', {
      'run.json': OLD_MANIFEST,
      'tasks.json': [{ id: 39604, instruction_type: 'Cell-Level Manipulation' }, { id: 7 }],
      'results/39604.json': V1_RESULT,
      'results/7.json': '{"taskId": "7", "soft": 1,',
    });
    await expect(loadRunOutcomes(dir)).rejects.toThrow(
      `run old-run: not a task result: ${path.join(dir, 'results/7.json')}: not valid JSON`,
    );
  });

  it('a result of the wrong shape names the field', async () => {
    const dir = runFolder(tmp(), 'r', {
      'run.json': OLD_MANIFEST,
      'tasks.json': [{ id: 39604 }],
      'results/39604.json': { ...V1_RESULT, taskId: 39604 },
    });
    await expect(loadRunOutcomes(dir)).rejects.toThrow(/results\/39604\.json: unexpected content: taskId: /);
  });
});

describe('cell diffs', () => {
  it('missing is null (results of older versions), corrupt throws naming the file', async () => {
    const dir = runFolder(tmp(), 'r', { 'tasks/7/cell-diffs.json': '[' });
    expect(await readCellDiffs(dir, '8')).toBeNull();
    await expect(readCellDiffs(dir, '7')).rejects.toThrow(/tasks\/7\/cell-diffs\.json: not valid JSON/);
  });
});
