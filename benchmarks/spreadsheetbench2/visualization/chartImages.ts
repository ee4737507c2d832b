/**
 * The charts of an output workbook as PNG images, exported by headless LibreOffice (Linux; the release exports them
 * through Excel or WPS on Windows). One soffice per call with its own profile and pipe, killed with its process group
 * afterwards; macros never run, links never update. A workbook LibreOffice cannot load is an error naming it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ChartImage } from './checklistJudge';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'export_charts.py');
const SOFFICE = process.env.SHEETBENCH_SOFFICE ?? 'soffice';
const UNO_PYTHON = process.env.SHEETBENCH_UNO_PYTHON ?? '/usr/bin/python3';

const replySchema = z.object({
  charts: z.array(z.object({ sheet: z.string(), index: z.number(), file: z.string() })),
  error: z.string().optional(),
});

export class ChartExportError extends Error {
  override name = 'ChartExportError';
}

function runScript(workbook: string, outDir: string, pipe: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(UNO_PYTHON, [SCRIPT, workbook, outDir, pipe], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (stdout.trim()) resolve(stdout);
      else reject(new ChartExportError(`chart export of ${workbook} ended (${code ?? 'killed'}): ${stderr.trim()}`));
    });
  });
}

/** Every chart of `workbook`, sheet by sheet, as PNG bytes. */
export async function exportChartImages(workbook: string, opts: { timeoutMs?: number } = {}): Promise<ChartImage[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sb2-charts-'));
  const pipe = `sb2charts-${process.pid}-${randomBytes(4).toString('hex')}`;
  const soffice = spawn(
    SOFFICE,
    [
      '--headless',
      '--norestore',
      '--nologo',
      '--invisible',
      `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
      `--accept=pipe,name=${pipe};urp;`,
    ],
    { stdio: 'ignore', detached: true },
  );
  try {
    const reply = replySchema.parse(JSON.parse(await runScript(workbook, dir, pipe, opts.timeoutMs ?? 120_000)));
    if (reply.error) throw new ChartExportError(`charts of ${workbook} could not be exported: ${reply.error}`);
    return await Promise.all(
      reply.charts.map(async (c) => ({ label: `${c.sheet} chart ${c.index}`, png: await readFile(c.file) })),
    );
  } finally {
    try {
      if (soffice.pid) process.kill(-soffice.pid, 'SIGKILL');
    } catch {
      // already gone: nothing to stop
    }
    await rm(dir, { recursive: true, force: true });
  }
}
