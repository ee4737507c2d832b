/**
 * `sheetbench doctor`: on this machine every item is ok; each broken item (bwrap missing, LibreOffice missing, Temporal
 * unreachable, a key the endpoint refuses, a full disk, a run folder it cannot write) says what is wrong and the fix.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { runChecks } from '../../cli/doctor/check';
import { modelCheck } from '../../cli/doctor/model';
import { diskCheck, runFolderCheck } from '../../cli/doctor/platform';
import { libreOfficeCheck } from '../../cli/doctor/recalc';
import { bubblewrapCheck } from '../../cli/doctor/sandbox';
import { temporalCheck } from '../../cli/doctor/temporal';
import { runCli } from '../helpers/cliProcess';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';

const work = mkdtempSync(path.join(os.tmpdir(), 'sb-doctor-'));

describe('sheetbench doctor on a healthy machine', () => {
  let temporal: TestTemporal;
  beforeAll(async () => {
    temporal = await startTestTemporal();
  }, 120_000);
  afterAll(() => temporal?.stop());

  it('checks every item in seconds and finds each ok', async () => {
    const env = {
      ...process.env,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: temporal.namespace,
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
    };
    const res = await runCli(['doctor', '--json', '--runs', path.join(work, 'runs')], { cwd: work, env });
    const { results } = JSON.parse(res.stdout) as {
      results: Array<{ name: string; status: string; detail: string; ms: number }>;
    };
    expect(results.map((r) => r.name)).toEqual([
      'node',
      'python',
      'bubblewrap',
      'sandbox environment',
      'LibreOffice',
      'Temporal',
      'model',
      'disk space',
      'run folder',
    ]);
    for (const r of results) expect(r.status, `${r.name}: ${r.detail}`).toBe('ok');
    expect(res.code).toBe(0);
    expect(results.find((r) => r.name === 'Temporal')!.detail).toContain(`namespace "${temporal.namespace}"`);
    expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(30_000);
  }, 90_000);
});

describe('each broken item names the fix', () => {
  let llm: ScriptedServer;
  beforeAll(async () => {
    llm = await startScriptedServer({ script: { rules: [], fallback: 'hi' }, apiKey: 'the-right-key' });
  });
  afterAll(() => llm?.close());

  it('bubblewrap missing', async () => {
    const [r] = await runChecks([bubblewrapCheck({ bwrap: path.join(work, 'no-bwrap') })], 10_000);
    expect(r).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('bwrap not found at'),
      fix: expect.stringContaining('apt-get install bubblewrap'),
    });
  });

  it('LibreOffice missing', async () => {
    const [r] = await runChecks([libreOfficeCheck({ sofficePath: path.join(work, 'no-soffice') })], 30_000);
    expect(r).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('soffice could not run'),
      fix: expect.stringContaining('bash scripts/setup.sh'),
    });
  });

  it('Temporal unreachable', async () => {
    const config = configSchema.parse({ temporal: { address: '127.0.0.1:1' } });
    const [r] = await runChecks([temporalCheck(config)], 20_000);
    expect(r).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('cannot reach the Temporal server at 127.0.0.1:1 (TEMPORAL_ADDRESS'),
      fix: expect.stringContaining('unset TEMPORAL_ADDRESS'),
    });
  });

  it('the model endpoint refusing the key', async () => {
    const llmConfig = configSchema.parse({ llm: { baseUrl: llm.url, apiKey: 'a-wrong-key', model: 'scripted' } }).llm;
    const [r] = await runChecks([modelCheck(llmConfig)], 20_000);
    expect(r).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('refused the API key'),
      fix: expect.stringContaining('export OPENAI_API_KEY='),
    });
    const [good] = await runChecks([modelCheck({ ...llmConfig, apiKey: 'the-right-key' })], 20_000);
    expect(good).toMatchObject({ status: 'ok' });
  });

  it('an embedded model that is not installed', async () => {
    const llmConfig = configSchema.parse({
      llm: { model: 'local-qwen2.5-coder-1.5b', localModelPath: path.join(work, 'missing.gguf') },
    }).llm;
    const [r] = await runChecks([modelCheck(llmConfig)], 10_000);
    expect(r).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('missing.gguf not found'),
      fix: expect.stringContaining('bash scripts/setup.sh'),
    });
  });

  it('a state folder on a full disk (simulated)', async () => {
    const [r] = await runChecks(
      [diskCheck([path.join(work, 'state')], { fsStat: async () => ({ bavail: 3, bsize: 4096 }) })],
      10_000,
    );
    expect(r).toMatchObject({
      status: 'fail',
      detail: `12 KB free for the state folder ${path.join(work, 'state')} (Temporal's database and conversations need room to grow)`,
    });
    expect(r.fix).toContain('set temporal.stateDir and conversation.dir in sheetbench.config.json');
  });

  it('a run folder it cannot write', async () => {
    writeFileSync(path.join(work, 'a-file'), 'x');
    const [r] = await runChecks([runFolderCheck(path.join(work, 'a-file', 'runs'))], 10_000);
    expect(r).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('cannot write in'),
      fix: expect.stringContaining('--out DIR'),
    });
  });

  it('a check that hangs fails, naming how long it was waited for', async () => {
    const [r] = await runChecks([{ name: 'stuck', run: () => new Promise(() => undefined) }], 200);
    expect(r).toMatchObject({ status: 'fail', detail: 'no answer within 0.2 s' });
  });
});
