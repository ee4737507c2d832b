import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spreadsheetPreview } from '../../benchmarks/spreadsheetbench/agents/preview';
import { sandboxPythonPath } from '../../lib/sandbox/paths';
import { PreviewServer, WorkbookPreviewError } from '../../benchmarks/spreadsheetbench/agents/previewServer';

const INPUT = path.resolve(__dirname, '../../data/sample/spreadsheet/1002/3_1002_input.xlsx');
const ONE_SHOT = path.resolve(__dirname, '../../benchmarks/spreadsheetbench/agents/preview.py');

/** Live children of a process (the forked preview children of the server), oldest first. */
function childrenOf(pid: number): number[] {
  const children: { pid: number; started: number }[] = [];
  for (const n of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on
      if (Number(fields[1]) === pid) children.push({ pid: Number(n), started: Number(fields[19]) });
    } catch {
      /* gone meanwhile */
    }
  }
  return children.sort((a, b) => a.started - b.started || a.pid - b.pid).map((c) => c.pid);
}

/** A FIFO named like a workbook: opening it blocks forever, so its preview never returns. */
function blockingWorkbook(name: string): string {
  const fifo = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-preview-')), name);
  execFileSync('mkfifo', [fifo]);
  return fifo;
}

async function until<T>(fn: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('PreviewServer (warm pandas, a forked child per preview)', () => {
  const server = new PreviewServer(sandboxPythonPath(), 3_000);
  afterAll(() => server.close());

  it('gives exactly the one-shot preview.py text, from the same warm process each time', async () => {
    const expected = execFileSync(sandboxPythonPath(), [ONE_SHOT, INPUT, '5'], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', OPENBLAS_NUM_THREADS: '1' },
    });
    expect(await spreadsheetPreview(INPUT, 5, server)).toBe(expected);
    const pid = server.pid;
    const again = await Promise.all([1, 2, 3].map(() => spreadsheetPreview(INPUT, 5, server)));
    expect(again).toEqual([expected, expected, expected]);
    expect(server.pid).toBe(pid);
  });

  it('a workbook pandas cannot read fails with its error, not a crash', async () => {
    const bad = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-preview-')), '1_bad_input.xlsx');
    writeFileSync(bad, 'PK\u0003\u0004 not really a zip');
    await expect(spreadsheetPreview(bad, 5, server)).rejects.toThrow(
      /cannot preview 1_bad_input\.xlsx: .*(BadZipFile|zip)/i,
    );
  });

  it('a workbook whose preview hangs fails with the reason, other previews go on, the server stays warm', async () => {
    await spreadsheetPreview(INPUT, 5, server);
    const pid = server.pid;
    const fifo = blockingWorkbook('1_hang_input.xlsx'); // opening it blocks forever: a preview that never returns
    const hanging = spreadsheetPreview(fifo, 5, server);
    const meanwhile = await spreadsheetPreview(INPUT, 5, server);
    expect(meanwhile).toContain('Sheet Name:');
    await expect(hanging).rejects.toThrow(
      /cannot preview 1_hang_input\.xlsx: the preview did not finish within 3 s and was killed/,
    );
    await expect(hanging).rejects.toBeInstanceOf(WorkbookPreviewError); // the task fails at once, no retry
    expect(server.pid).toBe(pid);
    expect(await spreadsheetPreview(INPUT, 5, server)).toContain('Sheet Name:');
  });

  it('a preview child that crashes fails only its own request with the signal', async () => {
    await spreadsheetPreview(INPUT, 5, server);
    const pid = server.pid!;
    const fifo = blockingWorkbook('1_crash_input.xlsx');
    const crashing = spreadsheetPreview(fifo, 5, server);
    // The spare that took the request, once the next spare was forked behind it.
    const [child] = await until(() => {
      const c = childrenOf(pid);
      return c.length >= 2 ? c : undefined;
    });
    process.kill(child, 'SIGSEGV');
    await expect(crashing).rejects.toThrow(
      /cannot preview 1_crash_input\.xlsx: the preview process crashed \(signal 11\)/,
    );
    expect(server.pid).toBe(pid);
    expect(await spreadsheetPreview(INPUT, 5, server)).toContain('Sheet Name:');
  });

  it('a spare child killed while it waits is replaced; the next request does not fail for it', async () => {
    await spreadsheetPreview(INPUT, 5, server);
    const pid = server.pid!;
    const [spare] = await until(() => {
      const c = childrenOf(pid);
      return c.length === 1 ? c : undefined;
    });
    process.kill(spare, 'SIGKILL');
    await until(() => (/\) Z /.test(readFileSync(`/proc/${spare}/stat`, 'utf8')) ? true : undefined)); // dead, not yet reaped
    expect(await spreadsheetPreview(INPUT, 5, server)).toContain('Sheet Name:');
    expect(server.pid).toBe(pid);
  });

  it('when the server itself dies, its pending previews fail and the next one starts a fresh server', async () => {
    await spreadsheetPreview(INPUT, 5, server);
    const pid = server.pid!;
    const fifo = blockingWorkbook('1_lost_input.xlsx');
    const lost = spreadsheetPreview(fifo, 5, server);
    await until(() => (childrenOf(pid).length ? true : undefined));
    process.kill(pid, 'SIGKILL');
    await expect(lost).rejects.toThrow(/the preview server exited \(signal SIGKILL\)/);
    await expect(lost).rejects.not.toBeInstanceOf(WorkbookPreviewError); // not the workbook's fault: the activity retries
    expect(await spreadsheetPreview(INPUT, 5, server)).toContain('Sheet Name:');
    expect(server.pid).not.toBe(pid);
  });
});
