/**
 * LibreOffice profiles start from a template kept after a first start (lib/recalc/profileTemplate.ts): the first
 * recalculator's profile is kept when it quits, the next one's profile is a copy of it, values stay right, and a
 * template soffice cannot start on is thrown away for a fresh profile. Real LibreOffice.
 */
import { access, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LibreOfficeRecalculator } from '../../lib/recalc/libreoffice';
import { ProfileTemplate } from '../../lib/recalc/profileTemplate';
import { cachedResults, formula, writeWorkbook } from './workbooks';

let dir: string;
const cacheHome = () => path.join(dir, 'cache');
const template = () => ProfileTemplate.forSoffice('soffice', path.join(cacheHome(), 'sheetbench/libreoffice-profile'));
const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

/** One recalculator that recalculates `input` once, then closes (its soffice quits); the names in its profile folder. */
async function recalcOnce(input: string, output: string): Promise<{ ok: boolean; profileNames: string[] }> {
  const recalc = LibreOfficeRecalculator.create({ instances: 1, profileRoot: await mkdtemp(path.join(dir, 'root-')) });
  try {
    const result = await recalc.recalc(input, output);
    return { ok: result.ok, profileNames: await readdir(path.join(recalc.profileRoot, 'profile-0')) };
  } finally {
    await recalc.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'lo-template-'));
  vi.stubEnv('XDG_CACHE_HOME', cacheHome());
  await writeWorkbook(path.join(dir, 'in.xlsx'), { A1: 2, A2: 3, B1: formula('SUM(A1:A2)') });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

describe('LibreOffice profile template', () => {
  it('keeps the first profile when its soffice quits, and starts the next profile as a copy of it', async () => {
    expect(await exists(template().dir)).toBe(false);
    const first = await recalcOnce(path.join(dir, 'in.xlsx'), path.join(dir, 'out-1.xlsx'));
    expect(first.ok).toBe(true);
    expect(await readdir(template().dir)).toContain('user');
    await writeFile(path.join(template().dir, 'copied-from-template'), '');
    const second = await recalcOnce(path.join(dir, 'in.xlsx'), path.join(dir, 'out-2.xlsx'));
    expect(second.ok).toBe(true);
    expect(second.profileNames).toContain('copied-from-template');
    expect(await cachedResults(path.join(dir, 'out-2.xlsx'), ['B1'])).toEqual({ B1: 5 });
  });

  it('a template soffice cannot start on is thrown away and the instance starts on a fresh profile', async () => {
    await rm(template().dir, { recursive: true, force: true });
    await mkdir(template().dir, { recursive: true });
    await writeFile(path.join(template().dir, 'user'), 'a file where soffice needs its user folder');
    const run = await recalcOnce(path.join(dir, 'in.xlsx'), path.join(dir, 'out-3.xlsx'));
    expect(run.ok).toBe(true);
    expect(await cachedResults(path.join(dir, 'out-3.xlsx'), ['B1'])).toEqual({ B1: 5 });
    // The broken template is gone; the fresh profile that worked is kept in its place.
    expect((await readdir(path.join(template().dir, 'user'))).length).toBeGreaterThan(0);
  });
});
