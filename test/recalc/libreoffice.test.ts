import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import { LibreOfficeRecalculator } from '../../lib/recalc/libreoffice';
import { createRecalculator } from '../../lib/recalc/index';
import { writeWorkbook, formula, cachedResults, rawCellXml } from './workbooks';
import { waitUntil } from '../helpers/wait';
import { pathExists } from '../../lib/runStore/files';

// Real LibreOffice (soffice + python3-uno, installed by scripts/setup.sh).

const run = promisify(execFile);
let dir: string;
let recalc: LibreOfficeRecalculator;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'recalc-test-'));
  recalc = LibreOfficeRecalculator.create({ instances: 1 });
});

afterAll(async () => {
  await recalc?.close();
  await rm(dir, { recursive: true, force: true });
});

const file = (name: string) => path.join(dir, name);

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('LibreOffice recalculator (persistent soffice over UNO)', () => {
  it('writes cached values for formulas stored without them', async () => {
    await writeWorkbook(file('plain.xlsx'), {
      A1: 2,
      A2: 3,
      A3: 'x',
      B1: formula('SUM(A1:A2)'),
      B2: formula('A1*A2+0.5'),
      B3: formula('A3&"-"&A1'),
      B4: formula('IF(B1>4,"big","small")'),
    });
    expect(await rawCellXml(file('plain.xlsx'), 'B1')).not.toContain('<v>');

    const result = await recalc.recalc(file('plain.xlsx'), file('plain-out.xlsx'));

    expect(result).toMatchObject({ ok: true, engine: 'libreoffice' });
    expect(await cachedResults(file('plain-out.xlsx'), ['B1', 'B2', 'B3', 'B4'])).toEqual({
      B1: 5,
      B2: 6.5,
      B3: 'x-2',
      B4: 'big',
    });
  });

  it('computes XLOOKUP (LibreOffice 25.x)', async () => {
    await writeWorkbook(file('xlookup.xlsx'), {
      D1: 'k1',
      E1: 10,
      D2: 'k2',
      E2: 20,
      D3: 'k3',
      E3: 30,
      B1: formula('_xlfn.XLOOKUP("k2",D1:D3,E1:E3)'),
      B2: formula('_xlfn.XLOOKUP("zz",D1:D3,E1:E3,"none")'),
    });
    await recalc.recalc(file('xlookup.xlsx'), file('xlookup-out.xlsx'));
    expect(await cachedResults(file('xlookup-out.xlsx'), ['B1', 'B2'])).toEqual({ B1: 20, B2: 'none' });
  });

  it('recalculates a tampered cached value that a plain soffice --convert-to keeps', async () => {
    await writeWorkbook(file('tampered.xlsx'), { A1: 7, B1: formula('A1*10', 999) });
    expect(await rawCellXml(file('tampered.xlsx'), 'B1')).toContain('<v>999</v>');

    // Control: LibreOffice's default convert keeps the stale cache, so the assertion below really tests calculateAll().
    const profile = pathToFileURL(path.join(dir, 'convert-profile')).href;
    await run('soffice', [
      `-env:UserInstallation=${profile}`,
      '--headless',
      '--convert-to',
      'xlsx',
      '--outdir',
      path.join(dir, 'converted'),
      file('tampered.xlsx'),
    ]);
    expect(await cachedResults(path.join(dir, 'converted', 'tampered.xlsx'), ['B1'])).toEqual({ B1: 999 });

    const result = await recalc.recalc(file('tampered.xlsx'), file('tampered-out.xlsx'));
    expect(result.ok).toBe(true);
    expect(await cachedResults(file('tampered-out.xlsx'), ['B1'])).toEqual({ B1: 70 });
  });

  it('copies a workbook without formulas unchanged instead of loading it in LibreOffice', async () => {
    await writeWorkbook(file('values.xlsx'), { A1: 4, B1: 'four' });
    const res = await recalc.recalc(file('values.xlsx'), file('values-out.xlsx'));
    expect(res).toMatchObject({ ok: true, copied: true });
    expect((await readFile(file('values-out.xlsx'))).equals(await readFile(file('values.xlsx')))).toBe(true);
    // A workbook with a formula still goes through the engine.
    await writeWorkbook(file('one-formula.xlsx'), { A1: 4, B1: formula('A1*2') });
    const computed = await recalc.recalc(file('one-formula.xlsx'), file('one-formula-out.xlsx'));
    expect(computed.ok).toBe(true);
    expect(computed.copied).toBeUndefined();
    expect(await cachedResults(file('one-formula-out.xlsx'), ['B1'])).toEqual({ B1: 8 });
  });

  it('recalculates in place when the output is the input', async () => {
    await writeWorkbook(file('inplace.xlsx'), { A1: 4, B1: formula('A1^2') });
    const result = await recalc.recalc(file('inplace.xlsx'), file('inplace.xlsx'));
    expect(result.ok).toBe(true);
    expect(await cachedResults(file('inplace.xlsx'), ['B1'])).toEqual({ B1: 16 });
  });

  it('fails corrupt or missing input with a reason and stays usable without a restart', async () => {
    await writeFile(file('garbage.xlsx'), 'this is not a workbook');
    await writeWorkbook(file('good.xlsx'), { A1: 1, B1: formula('A1+1') });
    const good = await readFile(file('good.xlsx'));
    await writeFile(file('truncated.xlsx'), good.subarray(0, Math.floor(good.length / 2)));
    const startsBefore = recalc.pool[0].starts;

    const garbage = await recalc.recalc(file('garbage.xlsx'), file('garbage-out.xlsx'));
    const truncated = await recalc.recalc(file('truncated.xlsx'), file('truncated-out.xlsx'));
    const missing = await recalc.recalc(file('no-such.xlsx'), file('missing-out.xlsx'));

    expect(garbage).toMatchObject({ ok: false, error: expect.stringMatching(/load failed|not open as a spreadsheet/) });
    expect(truncated).toMatchObject({
      ok: false,
      error: expect.stringMatching(/load failed|not open as a spreadsheet/),
    });
    expect(missing).toMatchObject({ ok: false, error: expect.stringContaining('input file not found') });
    for (const out of ['garbage-out.xlsx', 'truncated-out.xlsx', 'missing-out.xlsx'])
      expect(await pathExists(file(out))).toBe(false);

    const after = await recalc.recalc(file('good.xlsx'), file('good-out.xlsx'));
    expect(after.ok).toBe(true);
    expect(await cachedResults(file('good-out.xlsx'), ['B1'])).toEqual({ B1: 2 });
    expect(recalc.pool[0].starts).toBe(startsBefore);
  });

  it('serializes concurrent callers on one instance, each getting its own file', async () => {
    const inputs = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const name = `concurrent-${i}.xlsx`;
        await writeWorkbook(file(name), { A1: i, B1: formula('A1*100+1') });
        return name;
      }),
    );
    const results = await Promise.all(inputs.map((name) => recalc.recalc(file(name), file(`out-${name}`))));
    expect(results.map((r) => r.ok)).toEqual(inputs.map(() => true));
    for (const [i, name] of inputs.entries()) {
      expect(await cachedResults(file(`out-${name}`), ['B1'])).toEqual({ B1: i * 100 + 1 });
    }
  });

  it('kills a hung conversion, reports it, and restarts for the next file', async () => {
    await writeWorkbook(file('hang.xlsx'), { A1: 3, B1: formula('A1*3') });
    await recalc.recalc(file('hang.xlsx'), file('warm.xlsx'));
    const instance = recalc.pool[0];
    const pgid = instance.processGroupId!;
    const startsBefore = instance.starts;
    process.kill(-pgid, 'SIGSTOP'); // soffice stops answering: the UNO call hangs.

    const hung = await recalc.recalc(file('hang.xlsx'), file('hang-out.xlsx'), { timeoutMs: 2_000 });

    expect(hung).toMatchObject({ ok: false, error: expect.stringContaining('timed out after 2000 ms') });
    // Ended by the 2 s timeout, not by the 60 s test limit (how far past 2 s depends on the machine's load).
    expect(hung.durationMs).toBeLessThan(30_000);
    expect(groupAlive(pgid)).toBe(false);
    expect(await pathExists(file('hang-out.xlsx'))).toBe(false);

    const next = await recalc.recalc(file('hang.xlsx'), file('after-hang.xlsx'));
    expect(next.ok).toBe(true);
    expect(await cachedResults(file('after-hang.xlsx'), ['B1'])).toEqual({ B1: 9 });
    expect(instance.starts).toBe(startsBefore + 1);
    expect(instance.processGroupId).not.toBe(pgid);
  });

  it('reports a soffice that dies mid-conversion and restarts for the next file', async () => {
    const instance = recalc.pool[0];
    const pgid = instance.processGroupId!;
    process.kill(-pgid, 'SIGSTOP');
    const pending = recalc.recalc(file('hang.xlsx'), file('died-out.xlsx'), { timeoutMs: 30_000 });
    setTimeout(() => process.kill(-pgid, 'SIGKILL'), 300);

    const died = await pending;

    expect(died).toMatchObject({ ok: false, error: expect.stringContaining('LibreOffice died during the conversion') });
    expect(died.durationMs).toBeLessThan(30_000); // the death ended it, not the 30 s timeout
    const next = await recalc.recalc(file('hang.xlsx'), file('after-death.xlsx'));
    expect(next.ok).toBe(true);
  });

  it('restarts a soffice that died while idle', async () => {
    const instance = recalc.pool[0];
    const pgid = instance.processGroupId!;
    process.kill(-pgid, 'SIGKILL');
    // Died while idle: the group is gone (and its exit seen) before the next file comes.
    await waitUntil(() => !groupAlive(pgid), 30_000, 'the killed soffice group to be gone');

    const next = await recalc.recalc(file('hang.xlsx'), file('after-idle-death.xlsx'));

    expect(next.ok).toBe(true);
    expect(instance.processGroupId).not.toBe(pgid);
  });
});

describe('LibreOffice recalculator pool and lifecycle', () => {
  it('spreads concurrent files over a pool of two instances, then close() stops them and removes the profiles', async () => {
    const pool = LibreOfficeRecalculator.create({ instances: 2 });
    const names = ['p0.xlsx', 'p1.xlsx', 'p2.xlsx', 'p3.xlsx'];
    for (const [i, name] of names.entries()) await writeWorkbook(file(name), { A1: i, B1: formula('A1+1000') });

    const results = await Promise.all(names.map((name) => pool.recalc(file(name), file(`pool-${name}`))));

    expect(results.every((r) => r.ok)).toBe(true);
    for (const [i, name] of names.entries())
      expect(await cachedResults(file(`pool-${name}`), ['B1'])).toEqual({ B1: 1000 + i });
    expect(pool.pool.map((instance) => instance.starts)).toEqual([1, 1]);
    const groups = pool.pool.map((instance) => instance.processGroupId!);
    await pool.close();
    expect(groups.map(groupAlive)).toEqual([false, false]);
    expect(await pathExists(pool.profileRoot)).toBe(false);
    expect(await pool.recalc(file('p0.xlsx'), file('closed.xlsx'))).toMatchObject({
      ok: false,
      error: 'the recalculator is closed',
    });
  });

  it('reports a missing soffice binary as a start failure', async () => {
    const broken = createRecalculator('libreoffice', {
      libreoffice: { sofficePath: path.join(dir, 'no-soffice-here') },
    });
    const result = await broken.recalc(file('good.xlsx'), file('never.xlsx'));
    await broken.close();
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^LibreOffice did not start: soffice could not run/),
    });
  });

  it('rejects invalid options with a clear error', () => {
    expect(() => LibreOfficeRecalculator.create({ instances: 0 })).toThrow(/instances/);
  });
});
