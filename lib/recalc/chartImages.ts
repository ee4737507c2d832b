/**
 * The charts of a workbook as PNG images, exported by headless LibreOffice (Linux; SpreadsheetBench 2's release exports
 * them through Excel or WPS on Windows). One soffice per call with its own profile and pipe (`sofficeArgs`, as the
 * recalculation instances start it), killed with its process group afterwards; the workbook is loaded as for
 * recalculation (uno_session.py: hidden, read-only, macros and links never run). A workbook LibreOffice cannot load
 * is a ChartExportError naming it and the cause.
 *
 * Nothing of an export outlives a worker killed with SIGKILL: soffice runs in a guarded group (guardedGroup.ts) that
 * kills itself when the worker is gone, and the UNO script asks for SIGKILL at its parent's death (lo_charts.py). The
 * folder such a worker leaves behind, and any soffice whose guard was killed too, go at the next worker's first export.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { spawnGuardedGroup } from './guardedGroup';
import { sofficeArgs } from './sofficeCommand';
import { chartFolderPrefix, removeStaleChartFolders } from './staleChartFolders';
import { killOrphanedInstancesOnce } from './staleInstances';

const SCRIPT = fileURLToPath(new URL('./lo_charts.py', import.meta.url));
const SOFFICE = process.env.SHEETBENCH_SOFFICE ?? 'soffice';
const UNO_PYTHON = process.env.SHEETBENCH_UNO_PYTHON ?? '/usr/bin/python3';

export interface ChartImage {
  /** Where the chart is (`Sheet1 chart 1`). */
  label: string;
  /** Its main title as LibreOffice shows it ('' when it has none). */
  title: string;
  png: Buffer;
}

const replySchema = z.object({
  charts: z.array(z.object({ sheet: z.string(), index: z.number(), file: z.string(), title: z.string().default('') })),
  error: z.string().optional(),
});

export class ChartExportError extends Error {
  override name = 'ChartExportError';
}

function runScript(workbook: string, outDir: string, pipe: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(UNO_PYTHON, [SCRIPT, workbook, outDir, pipe, String(process.pid)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (stdout.trim()) resolve(stdout);
      else
        reject(
          new ChartExportError(
            `chart export of ${workbook} ended (${code ?? `killed after ${timeoutMs} ms`}): ${stderr.trim()}`,
          ),
        );
    });
  });
}

let sweep: Promise<unknown> | undefined;

/** What killed workers left: their soffice instances and chart folders (once per process, before its first export). */
function sweepOnce(): Promise<unknown> {
  sweep ??= Promise.resolve().then(() => {
    killOrphanedInstancesOnce();
    return removeStaleChartFolders();
  });
  return sweep;
}

/** Every chart of `workbook`, sheet by sheet, as PNG bytes. */
export async function exportChartImages(workbook: string, opts: { timeoutMs?: number } = {}): Promise<ChartImage[]> {
  await sweepOnce();
  const dir = await mkdtemp(chartFolderPrefix());
  const pipe = `sbcharts-${process.pid}-${randomBytes(4).toString('hex')}`;
  const soffice = spawnGuardedGroup(SOFFICE, sofficeArgs(path.join(dir, 'profile'), pipe));
  try {
    const reply = replySchema.parse(JSON.parse(await runScript(workbook, dir, pipe, opts.timeoutMs ?? 120_000)));
    if (reply.error) throw new ChartExportError(`charts of ${workbook} could not be exported: ${reply.error}`);
    return await Promise.all(
      reply.charts.map(async (c) => ({
        label: `${c.sheet} chart ${c.index}`,
        title: c.title,
        png: await readFile(c.file),
      })),
    );
  } finally {
    soffice.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
