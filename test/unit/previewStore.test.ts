/**
 * The preview store keeps a task's preview per dataset version and gives it back only while it still describes the
 * same workbook: another dataset version, row count or input path, a replaced workbook or a torn entry is built again.
 */
import { mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { PreviewStore, type PreviewQuery } from '../../benchmarks/spreadsheetbench/agents/previewStore';

describe('preview store', () => {
  let dir: string;
  let store: PreviewStore;
  let query: PreviewQuery;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sb-preview-store-'));
    store = new PreviewStore(path.join(dir, 'previews'));
    const inputPath = path.join(dir, '1_7_input.xlsx');
    await writeFile(inputPath, 'workbook bytes');
    query = { datasetVersion: 'v1', taskKey: '7', inputPath, rows: 5 };
  });

  it('gives back what was kept for the same dataset version, rows and unchanged workbook', async () => {
    expect(await store.get(query)).toBeUndefined();
    await store.put(query, 'Sheet Name: Sheet1\n');
    expect(await store.get(query)).toBe('Sheet Name: Sheet1\n');
    expect(await readdir(path.join(store.dir, 'v1'))).toEqual(['7.json']);
  });

  it('another dataset version, row count or input path is built again', async () => {
    await store.put(query, 'text');
    expect(await store.get({ ...query, datasetVersion: 'v2' })).toBeUndefined();
    expect(await store.get({ ...query, rows: 10 })).toBeUndefined();
    expect(await store.get({ ...query, inputPath: path.join(dir, 'elsewhere.xlsx') })).toBeUndefined();
  });

  it('a replaced workbook (new size or modification time) is built again', async () => {
    await store.put(query, 'text');
    await utimes(query.inputPath, new Date(), new Date(Date.now() + 60_000));
    expect(await store.get(query)).toBeUndefined();
    await store.put(query, 'text');
    await writeFile(query.inputPath, 'other, longer workbook bytes');
    expect(await store.get(query)).toBeUndefined();
  });

  it('a torn or foreign entry is built again, and a missing workbook is not kept', async () => {
    await store.put(query, 'text');
    await writeFile(path.join(store.dir, 'v1', '7.json'), '{"rows": 5, "inp');
    expect(await store.get(query)).toBeUndefined();
    await writeFile(path.join(store.dir, 'v1', '7.json'), '{"rows": "five"}');
    expect(await store.get(query)).toBeUndefined();
    const gone = { ...query, taskKey: '8', inputPath: path.join(dir, 'missing.xlsx') };
    await store.put(gone, 'text');
    expect(await store.get(gone)).toBeUndefined();
  });
});
