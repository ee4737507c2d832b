/**
 * `sheetbench run` on a v2 dataset folder, as a user runs it: the benchmark detected, `--agent swe_agent` (listed in
 * `run --help`), a scripted model, the paper's scaffold in the sandbox, LibreOffice recalculation; the official totals
 * per category printed and written.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';
import { cliWorkspace } from '../helpers/cliWorkspace';
import { runCli } from '../helpers/cliProcess';
import { runArgs } from '../helpers/runArgs';
import { scaffoldScript } from '../helpers/scaffoldScript';
import { hasSandboxPython, runPython } from '../scoring/oracle';
import { V2RunFiles } from '../../benchmarks/spreadsheetbench2';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-cli-'));

describe.skipIf(!hasSandboxPython)('sheetbench run on SpreadsheetBench 2', () => {
  let temporal: TestTemporal;
  let llm: ScriptedServer;
  let work: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
    temporal = await startTestTemporal();
    llm = await startScriptedServer({
      script: scaffoldScript({ answerPath: '/nonexistent', repoDir: '/nonexistent', hostUrl: '' }),
    });
    ({ work, env } = cliWorkspace('sb2-cli-', temporal, {
      temporal: { taskQueue: 'sb2-cli-main', recalcTaskQueue: 'sb2-cli-recalc' },
    }));
    // Recalculated dataset files go to this test's cache folder, not the user's.
    env = { ...env, XDG_CACHE_HOME: path.join(tmp, 'xdg-cache') };
  }, 120_000);
  afterAll(async () => {
    await llm?.close();
    await temporal?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('lists the scaffold and checked_vote among the agents', async () => {
    const help = await runCli(['run', '--help'], { cwd: work, env });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      "swe_agent | checked_vote (SpreadsheetBench 2: the paper's scaffold",
    );
  });

  it('runs the scaffold on two categories and prints their official totals', async () => {
    const out = path.join(work, 'r1');
    const res = await runCli(
      [
        ...runArgs({ dataset: path.join(tmp, 'data'), baseUrl: llm.url, model: 'scripted', runId: 'sb2-cli-1', out }),
        '--agent',
        'swe_agent',
        '--tasks',
        'tpl0,vis0',
      ],
      { cwd: work, env },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('run sb2-cli-1: 2 tasks, agent swe_agent, model scripted (openai)');
    expect(res.stdout).toContain('accuracy (2/2 tasks): 100.00%');
    expect(res.stdout).toContain('  Template: 100.00%  (1 tasks)');
    expect(res.stdout).toContain('  Visualization: 100.00%  (1 tasks)');
    expect(res.stdout).toContain('regression accuracy 100.00% (Template 100.00%, Visualization 100.00%)');
    expect(res.stdout).toContain('modification accuracy 100.00% (Template 100.00%, Visualization 100.00%)');
    const files = new V2RunFiles(out, 'swe_agent', 'scripted');
    expect(existsSync(files.outputPath('vis0'))).toBe(true);
    const template = JSON.parse(readFileSync(files.officialResultPath('Template'), 'utf8'));
    expect(template.missing_outputs).toBe(0);
    expect(template.scores).toEqual([
      {
        id: 'tpl0',
        error_message: '',
        regression_accuracy: 1.0,
        modification_accuracy: 1.0,
        accuracy: 1.0,
        interaction_turns: 5,
      },
    ]);
  }, 300_000);
});
