import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { loadAnalysisSuite } from '../../benchmarks/analysis/dataset';
import { runCli, type CliResult } from '../helpers/cliProcess';
import { referenceAnalyst } from '../helpers/referenceAnalyst';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SUITE = path.join(REPO, 'data/analysis');

/** `sheetbench run --dataset data/analysis` as a user runs it: detected, run durably, the summary printed. */
describe('sheetbench run on the analysis suite', () => {
  let temporal: TestTemporal;
  let llm: ScriptedServer;
  let res: CliResult;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    const suite = await loadAnalysisSuite(SUITE);
    llm = await startScriptedServer({ script: { rules: [], fallback: referenceAnalyst(suite.dir, suite.tasks, '') } });
    const work = mkdtempSync(path.join(os.tmpdir(), 'sb-cli-analysis-'));
    // mkdtemp's mode 700 left as it is: the sandbox reaches the run folder's conversation workspaces (passThrough.ts).
    const configFile = path.join(work, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        recalc: { engine: 'none' },
        temporal: { taskQueue: 'cli-analysis', recalcTaskQueue: 'cli-analysis-recalc' },
      }),
    );
    const env = {
      ...process.env,
      SHEETBENCH_CONFIG: configFile,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: temporal.namespace,
      OPENAI_API_KEY: 'test-key-not-secret',
    };
    const args = [
      'run',
      '--dataset',
      SUITE,
      '--agent',
      'react',
      '--tasks',
      'a01,a07',
      '--base-url',
      llm.url,
      '--model',
      'scripted',
      '--out',
      path.join(work, 'run'),
    ];
    res = await runCli(args, { cwd: work, env });
  }, 300_000);
  afterAll(async () => {
    await llm?.close();
    await temporal?.stop();
  });

  it('detects the suite and prints success per level and pattern, and the skipped fetch request', () => {
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr + res.stdout).toContain('analysis edition v1 (detected)');
    expect(res.stdout).toContain('success (1/2 requests scored, pattern react): 1 passed, 100.0%');
    expect(res.stdout).toMatch(/^ {2}L1 +1\/1 +100\.0%/m);
    expect(res.stdout).toMatch(/^skipped a07: request a07 downloads items\.json/m);
  });
});
