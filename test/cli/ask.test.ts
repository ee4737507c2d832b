import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';
import { cliWorkspace } from '../helpers/cliWorkspace';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `sheetbench ask` as a user runs it: one headless conversation, answer on stdout, files named on stderr. */
describe('sheetbench ask', () => {
  let temporal: TestTemporal;
  let llm: ScriptedServer;
  let work: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    llm = await startScriptedServer({ script: { rules: [], fallback: salesAnalyst } });
    ({ work, env } = cliWorkspace('sb-ask-', temporal, {
      recalc: { engine: 'none' },
      sandbox: { backend: 'bwrap' },
      temporal: { taskQueue: 'ask-main' },
    }));
    // mkdtemp's mode 700 left as it is: the sandbox reaches the conversation folders below it (passThrough.ts)
    writeFileSync(path.join(work, 'sales.csv'), SALES_CSV);
  }, 120_000);
  afterAll(async () => {
    await llm?.close();
    await temporal?.stop();
  });

  function ask(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(
        path.join(REPO, 'bin/sheetbench'),
        ['ask', ...args, '--base-url', llm.url, '--model', 'scripted'],
        { cwd: work, env },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  it('answers a question about a file and says where the files are', async () => {
    const out = path.join(work, 'convs');
    const res = await ask(['What is the total amount?', '--file', 'sales.csv', '--pattern', 'react', '--out', out]);
    expect(res.stderr).toContain('[tool] python_execute ok');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe('The total amount is **47**.');
    const workspace = /files in (\S+);/.exec(res.stderr)![1];
    expect(workspace.startsWith(out)).toBe(true);
    expect(readFileSync(path.join(workspace, 'sales.csv'), 'utf8')).toBe(SALES_CSV);
  }, 180_000);

  it('--export ipynb writes the notebook and the inputs zip under --out', async () => {
    const out = path.join(work, 'exported');
    const res = await ask([
      'What is the total amount?',
      '--file',
      'sales.csv',
      '--pattern',
      'react',
      '--out',
      out,
      '--export',
      'ipynb',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const written = [...res.stderr.matchAll(/^export: (\S+)$/gm)].map((m) => m[1]);
    expect(written.map((f) => path.basename(f))).toEqual([
      expect.stringMatching(/^c\w+\.ipynb$/),
      expect.stringMatching(/^c\w+-inputs\.zip$/),
    ]);
    for (const f of written) expect(f.startsWith(path.join(out, ''))).toBe(true);
    const nb = JSON.parse(readFileSync(written[0], 'utf8')) as {
      nbformat: number;
      cells: Array<{ cell_type: string; source: string }>;
    };
    expect(nb.nbformat).toBe(4);
    expect(nb.cells.some((c) => c.cell_type === 'code' && c.source.includes("pd.read_csv('sales.csv')"))).toBe(true);
  }, 180_000);

  it('refuses an unknown export format with a usage error', async () => {
    const res = await ask(['Q', '--export', 'docx']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--export must be ipynb or py');
  }, 60_000);

  it('refuses an unknown pattern with a usage error', async () => {
    const res = await ask(['Q', '--pattern', 'magic']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--pattern must be one of auto, direct');
  }, 60_000);
});
