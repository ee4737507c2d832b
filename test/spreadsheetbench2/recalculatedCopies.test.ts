/**
 * SpreadsheetBench 2's inputs, answers and outputs are scored as recalculated copies: made once per content (real
 * LibreOffice), reused for the same bytes under any name, never written over the user's file; an engine failure names
 * the file. `sheetbench eval --recalc` scores an output whose formulas were saved without values.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RecalculatedCopies, RecalculationError } from '../../benchmarks/spreadsheetbench2';
import { openWorkbookValues } from '../../benchmarks/workbook/ooxmlReader';
import { LibreOfficeRecalculator } from '../../lib/recalc/libreoffice';
import type { Recalculator } from '../../lib/recalc';
import { registerEvalCommands } from '../../cli/commands/eval';
import { cachedResults, formula, writeWorkbook } from '../recalc/workbooks';
import { hasSandboxPython, runPython } from '../scoring/oracle';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-recalc-'));
let lo: LibreOfficeRecalculator;
beforeAll(() => {
  lo = LibreOfficeRecalculator.create({ instances: 1 });
});
afterAll(async () => {
  await lo.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A recalculator that counts its calls and copies the file (or fails), for the cache's own logic. */
function countingRecalculator(fail = false) {
  const calls: string[] = [];
  const recalculator: Pick<Recalculator, 'recalc'> = {
    recalc(input, output) {
      calls.push(input);
      if (fail) return Promise.resolve({ ok: false, engine: 'libreoffice', durationMs: 1, error: 'load failed' });
      cpSync(input, output);
      return Promise.resolve({ ok: true, engine: 'libreoffice', durationMs: 1 });
    },
  };
  return { calls, recalculator };
}

describe('recalculated copies', () => {
  it("sweep the staging files a killed process left, and keep a live process's", async () => {
    const cache = path.join(tmp, 'cache-staging');
    mkdirSync(cache, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '0']).pid; // exited: its pid is gone
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const sha = 'ab'.repeat(32);
    const staged = (pid: number) => [
      `${sha}.xlsx.${pid}.1795740055335.in.xlsx`,
      `.${sha}.xlsx.${pid}.1795740055335.out.324c757b.recalc.xlsx`,
    ];
    for (const name of [...staged(dead), ...staged(live.pid!), `${sha}.xlsx`])
      writeFileSync(path.join(cache, name), 'x');
    try {
      const a = path.join(tmp, 'staging-a.xlsx');
      await writeWorkbook(a, { A1: 1 });
      await new RecalculatedCopies(countingRecalculator().recalculator, cache).of(a);
      const left = readdirSync(cache);
      for (const name of staged(dead)) expect(left).not.toContain(name);
      for (const name of [...staged(live.pid!), `${sha}.xlsx`]) expect(left).toContain(name);
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('are made once per content and reused for the same bytes under another name', async () => {
    const a = path.join(tmp, 'a.xlsx');
    await writeWorkbook(a, { A1: 1, A2: formula('A1*2') });
    const b = path.join(tmp, 'sub', 'b.xlsx');
    mkdirSync(path.dirname(b), { recursive: true });
    cpSync(a, b);
    const { calls, recalculator } = countingRecalculator();
    const copies = new RecalculatedCopies(recalculator, path.join(tmp, 'cache1'));
    const [first, again] = await Promise.all([copies.of(a), copies.of(a)]);
    const other = await copies.of(b);
    expect(first).toBe(again);
    expect(other).toBe(first);
    expect(calls).toHaveLength(1);
    expect(path.dirname(first)).toBe(path.join(tmp, 'cache1'));
    expect({ made: copies.made, reused: copies.reused }).toEqual({ made: 1, reused: 2 });
    // A later process finds the copy on disk.
    const later = countingRecalculator();
    expect(await new RecalculatedCopies(later.recalculator, path.join(tmp, 'cache1')).of(b)).toBe(first);
    expect(later.calls).toEqual([]);
  });

  it('name the file when the engine fails, and leave no copy behind', async () => {
    const a = path.join(tmp, 'bad.xlsx');
    await writeWorkbook(a, { A1: 5 });
    const copies = new RecalculatedCopies(countingRecalculator(true).recalculator, path.join(tmp, 'cache2'));
    const err = await copies.of(a).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecalculationError);
    expect((err as Error).message).toBe(`${a} could not be recalculated (libreoffice): load failed`);
    expect(await readdirOrEmpty(path.join(tmp, 'cache2'))).toEqual([]);
  });

  it('with LibreOffice: the copy holds the computed value, the user file keeps its bytes', async () => {
    const user = path.join(tmp, 'user.xlsx');
    await writeWorkbook(user, { A1: 21, A2: formula('A1*2') });
    const before = readFileSync(user);
    const copies = new RecalculatedCopies(lo, path.join(tmp, 'cache3'));
    const copy = await copies.of(user);
    expect(await cachedResults(copy, ['A2'])).toEqual({ A2: 42 });
    expect(readFileSync(user).equals(before)).toBe(true);
    expect(await cachedResults(user, ['A2'])).toEqual({ A2: undefined });
  }, 120_000);
});

async function readdirOrEmpty(dir: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return readdir(dir).catch(() => []);
}

async function cli(args: string[]): Promise<{ out: string; err: string }> {
  const program = new Command().exitOverride();
  registerEvalCommands(program);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['node', 'sheetbench', ...args]);
    const text = (s: typeof out) => s.mock.calls.map((c) => String(c[0])).join('');
    return { out: text(out), err: text(err) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe.skipIf(!hasSandboxPython)('sheetbench eval --recalc on a v2 folder', () => {
  it('scores an output whose formulas were saved without values, and reuses the copies the second time', async () => {
    const root = path.join(tmp, 'v2');
    runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), root], '');
    const category = path.join(root, 'data', 'Template');
    const outputs = path.join(root, 'formula-outputs');
    mkdirSync(outputs);
    // tpl0's answer: B2 = 91.5, B3 = 'N/A'. The output computes B2 with a formula openpyxl-style (no cached value).
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Template');
    for (const [cell, value] of Object.entries({ A1: 'Name', A2: 'Alice', A3: 'Bob', B1: 'Score', B3: 'N/A' }))
      ws.getCell(cell).value = value;
    ws.getCell('B2').value = formula('183/2');
    await wb.xlsx.writeFile(path.join(outputs, 'tpl0_output.xlsx'));
    const book = await openWorkbookValues(path.join(outputs, 'tpl0_output.xlsx'));
    expect((await book.sheet('Template')).get(2, 2)).toBeNull(); // saved without a value, as openpyxl saves formulas
    const env = { XDG_CACHE_HOME: path.join(tmp, 'xdg') };
    vi.stubEnv('XDG_CACHE_HOME', env.XDG_CACHE_HOME);
    try {
      const plain = path.join(tmp, 'plain.json');
      await cli(['eval', '--dataset', category, '--outputs', outputs, '--out', plain]);
      const scoreOf = (file: string) =>
        (JSON.parse(readFileSync(file, 'utf8')) as { scores: { id: string; accuracy: number }[] }).scores.find(
          (s) => s.id === 'tpl0',
        )!.accuracy;
      expect(scoreOf(plain)).toBe(0);
      const recalculated = path.join(tmp, 'recalc.json');
      const first = await cli(['eval', '--dataset', category, '--outputs', outputs, '--out', recalculated, '--recalc']);
      expect(scoreOf(recalculated)).toBe(1);
      expect(first.err).toMatch(/^recalculated \d+ workbooks, reused \d+ from .*v2-recalculated$/m);
      const second = await cli([
        'eval',
        '--dataset',
        category,
        '--outputs',
        outputs,
        '--out',
        recalculated,
        '--recalc',
      ]);
      expect(second.err).toMatch(/^recalculated 0 workbooks, reused \d+ from /m);
      expect(scoreOf(recalculated)).toBe(1);
    } finally {
      vi.unstubAllEnvs();
    }
  }, 300_000);
});
