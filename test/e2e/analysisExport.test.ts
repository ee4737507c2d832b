import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationDir, conversationLayout } from '../../analysis/conversation/layout';
import type { Sandbox } from '../../lib/sandbox/types';
import { jsonBody, startAnalysisEnv, waitForTurn, type AnalysisEnv } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';
import { bwrapFactory } from '../sandbox/helpers';

const NBFORMAT_PYTHON = path.resolve(__dirname, '../../.tools/notebook-venv/bin/python');

interface Notebook {
  nbformat: number;
  cells: Array<{
    cell_type: 'markdown' | 'code';
    source: string;
    outputs?: Array<{ output_type: string; name?: string; text?: string; data?: Record<string, string> }>;
  }>;
}

/** Validates a notebook against Jupyter's schema with the reference nbformat (scripts/setup.d/notebook.sh). */
function nbformatValidate(file: string): { ok: boolean; message: string } {
  if (!existsSync(NBFORMAT_PYTHON))
    throw new Error(`${NBFORMAT_PYTHON} missing: run scripts/setup.sh (scripts/setup.d/notebook.sh installs nbformat)`);
  const r = spawnSync(
    NBFORMAT_PYTHON,
    [
      '-c',
      'import sys, nbformat\nnb = nbformat.read(sys.argv[1], as_version=nbformat.NO_CONVERT)\nnbformat.validate(nb)\nprint("valid", nb.nbformat, nb.nbformat_minor, len(nb.cells))',
      file,
    ],
    { encoding: 'utf8' },
  );
  return { ok: r.status === 0, message: `${r.stdout}${r.stderr}`.trim() };
}

/** A folder the sandbox may use as its work dir, holding the unzipped inputs. */
async function unzipped(zip: Buffer): Promise<string> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sb-export-'));
  chmodSync(root, 0o755);
  const dir = path.join(root, 'work');
  mkdirSync(dir);
  const archive = await JSZip.loadAsync(zip);
  for (const [name, entry] of Object.entries(archive.files)) {
    if (entry.dir) continue;
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), await entry.async('nodebuffer'));
  }
  return dir;
}

/**
 * Export end to end: a conversation of four turns (one with a failing first attempt) becomes a notebook that nbformat
 * validates and that, run cell by cell in the sandbox's kernel over the inputs zip, prints what the conversation showed
 * and writes the same table; the script does the same; bad requests are refused with their reason.
 */
describe('export to a notebook and a script', () => {
  let a: AnalysisEnv;
  let id = '';
  let failedOnly = '';
  let workspace = '';
  const sandboxes: Sandbox[] = [];

  beforeAll(async () => {
    a = await startAnalysisEnv(salesAnalyst);
    const svc = a.server.service;
    const conv = await svc.create({ title: 'Sales totals', pattern: 'react' });
    id = conv.id;
    workspace = conversationLayout(conversationDir(svc.root, id)).workspace;
    await svc.upload(id, [{ name: 'sales.csv', data: Buffer.from(SALES_CSV) }]);
    for (const text of ['Total? [FAILFIRST]', 'By region? [TABLE]', 'Keep the total. [SETUP]', 'Double it. [USEVAR]']) {
      const { turnId } = await svc.send(id, { text, files: text.includes('FAILFIRST') ? ['sales.csv'] : [] });
      await waitForTurn(a, id, turnId, 300_000);
    }
    // The code later overwrites the upload: the export still ships the file as uploaded.
    writeFileSync(path.join(workspace, 'sales.csv'), 'changed,by,code\n');
    const bad = await svc.create({ title: 'never works', pattern: 'react' });
    failedOnly = bad.id;
    await svc.upload(bad.id, [{ name: 'sales.csv', data: Buffer.from(SALES_CSV) }]);
    const { turnId } = await svc.send(bad.id, { text: 'Total? [LOOP]' });
    await waitForTurn(a, bad.id, turnId, 300_000);
  }, 600_000);
  afterAll(async () => {
    await Promise.all(sandboxes.map((s) => s.dispose()));
    await a?.close();
  });

  const get = async (query: string, conversation = id) => a.api(`/api/conversations/${conversation}/export?${query}`);
  const notebook = async (query: string) => JSON.parse(await (await get(query)).text()) as Notebook;
  const code = (nb: Notebook) => nb.cells.filter((c) => c.cell_type === 'code');
  const stdoutOf = (cell: Notebook['cells'][number]) =>
    cell.outputs
      ?.filter((o) => o.output_type === 'stream' && o.name === 'stdout')
      .map((o) => o.text)
      .join('') ?? '';

  it('the API serves an .ipynb (nbformat 4) that the reference nbformat validates, as a download', async () => {
    const res = await get('format=ipynb');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${id}.ipynb"`);
    expect(res.headers.get('content-type')).toBe('application/x-ipynb+json');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-nb-')), 'conversation.ipynb');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const check = nbformatValidate(file);
    expect(check.ok, check.message).toBe(true);
    expect(check.message).toMatch(/^valid 4 5 \d+$/);
  });

  it('has markdown for each question and answer, a code cell per successful execution in order, and the outputs shown', async () => {
    const nb = await notebook('format=ipynb');
    const markdown = nb.cells.filter((c) => c.cell_type === 'markdown').map((c) => c.source);
    for (const q of ['Total? [FAILFIRST]', 'By region? [TABLE]', 'Keep the total. [SETUP]', 'Double it. [USEVAR]'])
      expect(markdown.some((m) => m.includes(`**Question:** ${q}`))).toBe(true);
    expect(markdown.filter((m) => m.startsWith('**Answer:**'))).toHaveLength(4);
    expect(markdown.some((m) => m.includes('1 execution(s) of this turn failed and are left out'))).toBe(true);
    const cells = code(nb);
    expect(cells).toHaveLength(5); // the setup cell, then one per successful execution
    expect(cells.some((c) => c.source.includes("df['amout']"))).toBe(false);
    expect(cells.slice(1).map(stdoutOf)).toEqual(['47\n', '47\n', '47\n', '94\n']);
    const table = cells[2].outputs!.find((o) => o.output_type === 'display_data')!;
    expect(table.data!['text/html']).toContain('<td>north</td><td>15</td>');
    expect(cells[0].source).toContain('from sheetbench_viz import save_table');
  });

  it('ships the inputs by their workspace names, as uploaded', async () => {
    const res = await get('format=inputs');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${id}-inputs.zip"`);
    const zip = await JSZip.loadAsync(Buffer.from(await res.arrayBuffer()));
    expect(Object.keys(zip.files)).toEqual(['sales.csv']);
    expect(await zip.files['sales.csv'].async('string')).toBe(SALES_CSV);
  });

  it('run cell by cell in the sandbox kernel over the inputs, the notebook prints what was shown and writes the same table', async () => {
    const nb = await notebook('format=ipynb');
    const dir = await unzipped(Buffer.from(await (await get('format=inputs')).arrayBuffer()));
    const sandbox = await (await bwrapFactory()).create({ workDir: dir, language: 'python', warmModules: [] });
    sandboxes.push(sandbox);
    const printed: string[] = [];
    for (const cell of code(nb)) {
      const r = await sandbox.execute(cell.source, { timeoutMs: 60_000 });
      expect(r.error, cell.source).toBe('');
      printed.push(r.stdout);
    }
    expect(printed).toEqual(code(nb).map(stdoutOf));
    expect(readFileSync(path.join(dir, 'viz/by_region.csv'), 'utf8')).toBe(
      readFileSync(path.join(workspace, 'viz/by_region.csv'), 'utf8'),
    );
    expect(
      JSON.parse(readFileSync(path.join(dir, 'visualization_manifest.json'), 'utf8')).outputs.map(
        (o: { id: string }) => o.id,
      ),
    ).toEqual(['by_region']);
  }, 180_000);

  it('the .py script runs as a script in the sandbox and does the same', async () => {
    const res = await get('format=py');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${id}.py"`);
    const script = await res.text();
    expect(script).toMatch(/^# %% \[markdown\]\n# # Sales totals/);
    const dir = await unzipped(Buffer.from(await (await get('format=inputs')).arrayBuffer()));
    writeFileSync(path.join(dir, 'conversation.py'), script);
    const sandbox = await (await bwrapFactory()).create({ workDir: dir, language: 'python', warmModules: [] });
    sandboxes.push(sandbox);
    // `python conversation.py` with the sandbox's interpreter, inside the sandbox.
    const run =
      "import subprocess, sys\nr = subprocess.run([sys.executable, 'conversation.py'], capture_output=True, text=True)\nprint(r.stdout + r.stderr + f'exit {r.returncode}')";
    const r = await sandbox.execute(run, { timeoutMs: 120_000 });
    expect(r.error).toBe('');
    expect(r.stdout).toBe('47\n47\n47\n94\nexit 0\n');
    expect(readFileSync(path.join(dir, 'viz/by_region.csv'), 'utf8')).toBe(
      readFileSync(path.join(workspace, 'viz/by_region.csv'), 'utf8'),
    );
  }, 180_000);

  it('one turn exports with the code of the turns before it, and still runs', async () => {
    const nb = await notebook('format=ipynb&turn=t4');
    expect(
      nb.cells
        .filter((c) => c.cell_type === 'markdown')
        .map((c) => c.source)
        .filter((m) => m.includes('**Question:**')),
    ).toEqual(['## Turn t4\n\n**Question:** Double it. [USEVAR]']);
    const dir = await unzipped(Buffer.from(await (await get('format=inputs')).arrayBuffer()));
    const sandbox = await (await bwrapFactory()).create({ workDir: dir, language: 'python', warmModules: [] });
    sandboxes.push(sandbox);
    let last = '';
    for (const cell of code(nb)) {
      const r = await sandbox.execute(cell.source, { timeoutMs: 60_000 });
      expect(r.error, cell.source).toBe('');
      last = r.stdout;
    }
    expect(last).toBe('94\n');
  }, 180_000);

  it('refuses what cannot be exported with its reason, and the conversation goes on', async () => {
    const none = await get('format=ipynb', failedOnly);
    expect(none.status).toBe(409);
    expect(((await none.json()) as { error: string }).error).toMatch(
      /has no Python code that ran successfully \(\d+ execution\(s\) failed\): a notebook would have nothing to run/,
    );
    expect((await get('format=docx')).status).toBe(400);
    expect((await get('format=ipynb&turn=t99')).status).toBe(404);
    expect((await get('format=ipynb&turn=../t1')).status).toBe(400);
    const { turnId } = await a.json<{ turnId: string }>(
      `/api/conversations/${failedOnly}/messages`,
      jsonBody({ text: 'Total? [SETUP]' }),
    );
    const events = (await waitForTurn(a, failedOnly, turnId)).filter((e) => e.turnId === turnId);
    expect(events.at(-1)!.data.status).toBe('completed');
    expect((await get('format=ipynb', failedOnly)).status).toBe(200);
  });
});
