import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  CorruptFileError,
  MissingFileError,
  parseJsonLines,
  readJsonFile,
  readJsonIfPresent,
  readRequiredJson,
  warnCorruptFile,
} from '../../lib/json';

const schema = z.object({ n: z.number(), note: z.string().optional() });
const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-json-'));
const file = (name: string, text?: string) => {
  const p = path.join(dir, name);
  if (text !== undefined) writeFileSync(p, text);
  return p;
};

describe('readJsonFile tells missing from corrupt', () => {
  it('a missing file is { kind: missing }, and undefined from readJsonIfPresent', async () => {
    expect(await readJsonFile(file('absent.json'), schema)).toEqual({ kind: 'missing' });
    expect(await readJsonIfPresent(file('absent.json'), schema)).toBeUndefined();
  });

  it('a matching file is { kind: ok } with the parsed value', async () => {
    expect(await readJsonFile(file('ok.json', '{"n": 3}'), schema)).toEqual({ kind: 'ok', value: { n: 3 } });
  });

  it('a file that is not JSON throws a CorruptFileError naming the file', async () => {
    const p = file('torn.json', '{"n": 3');
    const err = await readJsonFile(p, schema).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorruptFileError);
    expect((err as CorruptFileError).file).toBe(p);
    expect((err as Error).message).toMatch(new RegExp(`^${p}: not valid JSON`));
  });

  it('a file of the wrong shape throws naming the file and the zod issue (path and message)', async () => {
    const p = file('shape.json', '{"n": "three"}');
    await expect(readJsonIfPresent(p, schema)).rejects.toThrow(
      new RegExp(`${p}: unexpected content: n: Invalid input: expected number`),
    );
  });

  it('readRequiredJson: missing is a MissingFileError naming the file, not a corrupt one', async () => {
    const p = file('needed.json');
    const err = await readRequiredJson(p, schema).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingFileError);
    expect((err as Error).message).toBe(`${p}: file is missing`);
  });

  it('another read error (a folder where the file should be) is thrown, not taken for missing', async () => {
    const p = path.join(dir, 'a-folder.json');
    mkdirSync(p);
    await expect(readJsonFile(p, schema)).rejects.toThrow(/EISDIR/);
  });
});

describe('parseJsonLines', () => {
  it('returns good lines, names each corrupt complete line by number, and leaves a torn tail out quietly', () => {
    const text = '{"n":1}\n\n{"n":\n{"n":"x"}\n{"n":4}\n{"n":5';
    const { values, corrupt } = parseJsonLines(text, schema, 'events.jsonl');
    expect(values).toEqual([{ n: 1 }, { n: 4 }]);
    expect(corrupt.map((e) => e.line)).toEqual([3, 4]);
    expect(corrupt[0].message).toMatch(/^events\.jsonl:3: not valid JSON/);
    expect(corrupt[1].message).toMatch(/^events\.jsonl:4: unexpected content: n: /);
  });
});

describe('warnCorruptFile', () => {
  afterEach(() => vi.restoreAllMocks());
  it('warns once per file and problem, naming both and what happens next', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const err = new CorruptFileError('/x/once.json', 'not valid JSON');
    warnCorruptFile(err, 'left out of the list');
    warnCorruptFile(err, 'left out of the list');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toBe('sheetbench: corrupt file /x/once.json: not valid JSON — left out of the list');
  });
});
