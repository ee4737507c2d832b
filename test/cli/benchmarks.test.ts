import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';
import { copyInputReply } from '../helpers/copyInput';
import { DSBENCH_SAMPLE_SCRIPT } from '../helpers/dsbenchScript';
import { EXIT } from '../../cli/exitCodes';
import { runCli } from '../helpers/cliProcess';
import { cliWorkspace } from '../helpers/cliWorkspace';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The CLI detects the benchmark and edition, says so, runs DSBench and Verified, re-judges; bad datasets exit 4. */
describe('sheetbench CLI with several benchmarks', () => {
  let temporal: TestTemporal;
  let llm: ScriptedServer;
  let env: NodeJS.ProcessEnv;
  let work: string;

  const cli = (args: string[]) => runCli(args, { cwd: work, env });

  beforeAll(async () => {
    temporal = await startTestTemporal();
    llm = await startScriptedServer({ script: { ...DSBENCH_SAMPLE_SCRIPT, fallback: copyInputReply } });
    ({ work, env } = cliWorkspace('sb-cli-bench-', temporal, {
      recalc: { engine: 'none' },
      temporal: { taskQueue: 'cli-bench-main', recalcTaskQueue: 'cli-bench-recalc' },
    }));
  }, 120_000);
  afterAll(async () => {
    await llm?.close();
    await temporal?.stop();
  });

  it('detects DSBench, runs it, prints accuracy; rejudge re-asks only the judge', async () => {
    const out = path.join(work, 'ds');
    const res = await cli([
      'run',
      '--dataset',
      path.join(REPO, 'data/dsbench-sample'),
      '--base-url',
      llm.url,
      '--model',
      'scripted',
      '--run-id',
      'cli-ds-1',
      '--out',
      out,
    ]);
    expect(res.stderr).toContain(
      `dataset ${path.join(REPO, 'data/dsbench-sample')}: dsbench edition data_analysis (detected)`,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(
      'accuracy (7/7 questions): 57.14% (4 correct), competition-level 55.56%, unparseable judgments 1',
    );
    const again = await cli(['rejudge', out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('unparseable judgments 1');
    expect(llm.log.filter((e) => e.answered && e.callKey?.endsWith('/answer'))).toHaveLength(7);
    expect(llm.log.filter((e) => e.answered && e.callKey?.includes('/judge#rejudge-'))).toHaveLength(1);
    const report = await cli(['report', out]);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('## Accuracy by competition');
  }, 240_000);

  it('detects Verified and says so', async () => {
    const res = await cli([
      'run',
      '--dataset',
      path.join(REPO, 'data/verified-sample'),
      '--base-url',
      llm.url,
      '--model',
      'scripted',
      '--run-id',
      'cli-ver-1',
      '--out',
      path.join(work, 'ver'),
      '--limit',
      '1',
    ]);
    expect(res.stderr).toContain('spreadsheetbench edition verified_400 (detected)');
    expect(res.code, res.stderr).toBe(0);
  }, 240_000);

  it('refuses a folder that is no benchmark, an unknown edition and a non-release archive, with exit code 4', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'sb-none-'));
    const none = await cli(['run', '--dataset', empty, '--base-url', llm.url]);
    expect(none.code).toBe(EXIT.dataset);
    expect(none.stderr).toContain(
      `${empty} is not a known benchmark dataset (looked for: spreadsheetbench2, spreadsheetbench, dsbench, analysis); name one with --benchmark`,
    );
    const edition = await cli([
      'run',
      '--dataset',
      path.join(REPO, 'data/sample'),
      '--edition',
      'v9',
      '--base-url',
      llm.url,
    ]);
    expect(edition.code).toBe(EXIT.dataset);
    expect(edition.stderr).toContain('unknown spreadsheetbench edition v9');
    const fake = path.join(empty, 'release.tar.gz');
    writeFileSync(fake, 'not an archive');
    const archive = await cli(['run', '--dataset', fake, '--base-url', llm.url]);
    expect(archive.code).toBe(EXIT.dataset);
    expect(archive.stderr).toContain(`archive ${fake} cannot be unpacked`);
  }, 120_000);
});
