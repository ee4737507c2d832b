import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema';
import { createRun, planRun } from '../../client/createRun';
import { readManifest } from '../../lib/runStore/manifest';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/sample');

describe('a dataset kept in the run store is found by every host, wherever it mounts the store', () => {
  it("is recorded relative to the run folder and resolved under the reader's mount", async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'sb-dsstore-'));
    const root = path.join(base, 'store');
    mkdirSync(path.join(root, 'datasets'), { recursive: true });
    cpSync(SAMPLE, path.join(root, 'datasets', 'sample'), { recursive: true });
    const config = configSchema.parse({ artifacts: { root } });
    const { manifest } = await createRun(
      config,
      await planRun({ datasetDir: path.join(root, 'datasets', 'sample'), agent: 'single' }),
      { runDir: path.join(root, 'team', 'run-1'), runId: 'r1' },
    );
    expect(manifest.datasetDir).toBe(path.join(root, 'datasets', 'sample'));
    expect(JSON.parse(readFileSync(path.join(root, 'team', 'run-1', 'run.json'), 'utf8')).datasetDir).toBe(
      '../../datasets/sample',
    );
    const otherMount = path.join(base, 'mnt-b');
    symlinkSync(root, otherMount);
    expect((await readManifest(path.join(otherMount, 'team', 'run-1'))).datasetDir).toBe(
      path.join(otherMount, 'datasets', 'sample'),
    );
  });

  it('a dataset outside the root (or no root) stays an absolute path', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sb-dsstore-'));
    const { runDir } = await createRun(
      configSchema.parse({ artifacts: { root } }),
      await planRun({ datasetDir: SAMPLE, agent: 'single' }),
      { runDir: path.join(root, 'run-2'), runId: 'r2' },
    );
    expect(JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')).datasetDir).toBe(SAMPLE);
    const noRoot = mkdtempSync(path.join(os.tmpdir(), 'sb-dsstore-'));
    await createRun(configSchema.parse({}), await planRun({ datasetDir: SAMPLE, agent: 'single' }), {
      runDir: noRoot,
      runId: 'r3',
    });
    expect(JSON.parse(readFileSync(path.join(noRoot, 'run.json'), 'utf8')).datasetDir).toBe(SAMPLE);
  });
});
