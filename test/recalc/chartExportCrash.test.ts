/**
 * The chart export (SpreadsheetBench 2 Visualization) leaves nothing behind when the process that owns it is killed
 * with SIGKILL mid-export: real soffice (oosplash and the soffice.bin it forks) goes with its guard, the UNO script
 * started after its owner died exits at once, and the export folder the dead owner left is removed by the next
 * process's first export. The owner is test/helpers/chartExportOwner.ts; its UNO Python is a held stand-in that waits
 * for the test's go before it runs the real lo_charts.py, so the kill lands while soffice runs and the export waits.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exportChartImages } from '../../lib/recalc/chartImages';
import { removeStaleChartFolders } from '../../lib/recalc/staleChartFolders';
import { hasSandboxPython, runPython } from '../scoring/oracle';
import { alive, waitUntil } from '../helpers/wait';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'chart-crash-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Proc {
  pid: number;
  argv: string[];
}

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      found.push({ pid: Number(entry), argv });
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** Every process of the export `owner` started: its soffice (guard, oosplash, soffice.bin) and its UNO script. */
function exportProcessesOf(owner: number): Proc[] {
  return processes().filter((p) => p.argv.some((a) => a.includes(`sb-charts-${owner}-`)));
}
const isSofficeBin = (p: Proc) => p.argv[0]?.endsWith('soffice.bin') ?? false;
const describeProcs = (ps: Proc[]) => ps.map((p) => `${p.pid} ${p.argv.slice(0, 3).join(' ')}`).join('; ');

function chartWorkbook(file: string): void {
  const script = [
    'import sys, openpyxl',
    'from openpyxl.chart import BarChart, Reference',
    'wb = openpyxl.Workbook(); ws = wb.active',
    'for r in range(1, 6): ws.append([f"r{r}", r * 10])',
    'c = BarChart(); c.add_data(Reference(ws, min_col=2, min_row=1, max_row=5)); ws.add_chart(c, "D2")',
    'wb.save(sys.argv[1])',
  ].join('\n');
  runPython(['-c', script, file], '');
}

/** A UNO Python that waits for `go` to exist, then runs the real one on its arguments (lo_charts.py and the rest). */
function heldUnoPython(go: string): string {
  const file = path.join(tmp, 'held-python.sh');
  writeFileSync(file, `#!/bin/sh\nwhile [ ! -e '${go}' ]; do sleep 0.1; done\nexec /usr/bin/python3 "$@"\n`, {
    mode: 0o755,
  });
  return file;
}

describe.skipIf(!hasSandboxPython)('a chart export whose owner is killed with SIGKILL', () => {
  it('leaves no soffice of its profile, no UNO script, and its folder goes at the next first export', async () => {
    const workbook = path.join(tmp, 'chart.xlsx');
    chartWorkbook(workbook);
    const go = path.join(tmp, 'go');
    const owner = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/chartExportOwner.ts', workbook], {
      cwd: REPO,
      env: { ...process.env, SHEETBENCH_UNO_PYTHON: heldUnoPython(go) },
      stdio: 'ignore',
    });
    const pid = owner.pid!;
    const heldScript = () => exportProcessesOf(pid).some((p) => p.argv.some((a) => a.endsWith('lo_charts.py')));
    await waitUntil(
      () => exportProcessesOf(pid).some(isSofficeBin) && heldScript(),
      120_000,
      'soffice.bin of the export and its held UNO script',
    );
    const folders = readdirSync(os.tmpdir()).filter((n) => n.startsWith(`sb-charts-${pid}-`));
    expect(folders).toHaveLength(1);

    process.kill(pid, 'SIGKILL');
    await waitUntil(() => !alive(pid), 30_000, 'the owner to die');
    await waitUntil(
      () => exportProcessesOf(pid).filter((p) => !p.argv.some((a) => a.endsWith('lo_charts.py'))).length === 0,
      30_000,
      `no soffice of the dead owner's profile (left: ${describeProcs(exportProcessesOf(pid))})`,
    );
    // The UNO script gets to run only now, its parent gone: it exits without connecting to anything.
    writeFileSync(go, '');
    await waitUntil(() => exportProcessesOf(pid).length === 0, 30_000, 'the UNO script to exit');
    expect(readdirSync(os.tmpdir())).toContain(folders[0]);

    // This test process's first export sweeps what the dead owner left.
    const images = await exportChartImages(workbook);
    expect(images).toHaveLength(1);
    expect(readdirSync(os.tmpdir())).not.toContain(folders[0]);
  }, 300_000);
});

describe('stale chart folders', () => {
  it('removes those of a dead owner and old ones named before the owner was, keeps live and recent ones', async () => {
    const root = path.join(tmp, 'root');
    const make = (name: string) => mkdirSync(path.join(root, name, 'profile'), { recursive: true });
    make('sb-charts-2147483000-abcdef'); // owner pid that does not exist
    make(`sb-charts-${process.pid}-abcdef`); // a live owner: this process
    make('sb-charts-OLDold'); // before the owner's pid was in the name, two hours old
    make('sb-charts-NEWnew'); // the same, just made: maybe a running older worker's
    make('other-folder');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(path.join(root, 'sb-charts-OLDold'), twoHoursAgo, twoHoursAgo);

    const removed = await removeStaleChartFolders(root);

    expect(removed.map((f) => path.basename(f)).sort()).toEqual(['sb-charts-2147483000-abcdef', 'sb-charts-OLDold']);
    expect(readdirSync(root).sort()).toEqual(['other-folder', `sb-charts-${process.pid}-abcdef`, 'sb-charts-NEWnew']);
  });
});
