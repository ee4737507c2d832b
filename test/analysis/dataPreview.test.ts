import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dataPreview } from '../../analysis/conversation/dataPreview';
import { declaredUnzippedBytes } from '../../analysis/workspace/zipContentSize';

const SUITE_FILES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/analysis/files');

function workspaceWith(files: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-preview-'));
  for (const f of files) copyFileSync(path.join(SUITE_FILES, f), path.join(dir, f));
  return dir;
}

describe("the data preview in a turn's first prompt", () => {
  it("shows each data file's exact column names and first rows (CSV, JSON records, a workbook's sheets)", async () => {
    const dir = workspaceWith(['sales.csv', 'items.json', 'customers.xlsx']);
    const preview = await dataPreview(dir, ['customers.xlsx', 'items.json', 'sales.csv']);
    expect(preview).toMatch(/^Preview of the data files/);
    expect(preview).toMatch(/sales\.csv:\n {2}columns: region, product, month, amount, units\n/);
    expect(preview).toMatch(/items\.json:\n {2}a JSON list of \d+ records with keys: name, score/);
    expect(preview).toMatch(/customers\.xlsx:\n {2}sheet \w+: columns: .*income.*spend/);
    // Three rows per file, no more.
    const salesRows = preview.split('sales.csv:\n')[1].split('\n').slice(1, 5);
    expect(salesRows.slice(0, 3).every((l) => /^ {2}north,apples,2024-/.test(l))).toBe(true);
    expect(salesRows[3] ?? '').not.toMatch(/^ {2}north/);
  });

  it('leaves out tool outputs and other files, and says nothing when there is no data file', async () => {
    const dir = workspaceWith(['sales.csv']);
    mkdirSync(path.join(dir, 'viz'));
    writeFileSync(path.join(dir, 'viz/bar-1.csv'), 'region,amount\nnorth,1\n');
    writeFileSync(path.join(dir, 'notes.txt'), 'hello');
    writeFileSync(path.join(dir, 'visualization_manifest.json'), '{"version": "1.0", "outputs": []}');
    const preview = await dataPreview(dir, ['notes.txt', 'sales.csv', 'viz/bar-1.csv', 'visualization_manifest.json']);
    expect(preview).toContain('sales.csv:');
    expect(preview).not.toContain('viz/bar-1.csv');
    expect(preview).not.toContain('visualization_manifest.json');
    expect(preview).not.toContain('notes.txt');
    expect(await dataPreview(dir, ['notes.txt'])).toBe('');
  });

  it('abuse: a symlink out of the workspace, a workbook declaring a huge inflated size and junk are not read', async () => {
    const dir = workspaceWith([]);
    const outside = mkdtempSync(path.join(os.tmpdir(), 'sb-secret-'));
    writeFileSync(path.join(outside, 'answers.csv'), 'secret,value\nSECRET,42\n');
    symlinkSync(path.join(outside, 'answers.csv'), path.join(dir, 'link.csv'));
    writeFileSync(path.join(dir, 'bomb.xlsx'), zipDeclaring(3 * 1024 * 1024 * 1024));
    writeFileSync(path.join(dir, 'junk.xlsx'), 'not a zip at all');
    const preview = await dataPreview(dir, ['bomb.xlsx', 'junk.xlsx', 'link.csv']);
    expect(preview).not.toContain('SECRET');
    expect(preview).toContain('bomb.xlsx:\n  (a workbook too large to preview here)');
    expect(preview).toContain('junk.xlsx:\n  (a workbook too large to preview here)');
  });
});

describe('the size a ZIP declares', () => {
  it('sums the uncompressed sizes of the central directory; undefined for what is not a ZIP', () => {
    expect(declaredUnzippedBytes(zipDeclaring(1234))).toBe(1234);
    expect(declaredUnzippedBytes(Buffer.from('plain text'))).toBeUndefined();
    expect(declaredUnzippedBytes(Buffer.alloc(0))).toBeUndefined();
  });
});

/** A one-entry ZIP whose central directory declares `size` uncompressed bytes (the data itself is tiny). */
function zipDeclaring(size: number): Buffer {
  const name = Buffer.from('xl/workbook.xml');
  const data = deflateRawSync(Buffer.from('<x/>'));
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(Math.min(size, 0xfffffffe), 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(Math.min(size, 0xfffffffe), 24);
  central.writeUInt16LE(name.length, 28);
  const centralAt = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}
