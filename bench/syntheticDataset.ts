import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEV20 } from '../test/helpers/datasets';

interface DatasetRecord {
  id: number | string;
  spreadsheet_path: string;
  [k: string]: unknown;
}

/**
 * dataset.json with the dev20 records repeated under ids `<id>-r<k>` (the first `count`); the workbooks are symlinks
 * to the originals, in a new temp folder, or in `stableDir` (emptied and made again: the same content at the same path
 * each time, so what is kept per dataset version, previews and floors, is found again by a later run).
 */
export function buildSyntheticDataset(
  repeat: number,
  count: number,
  stableDir?: string,
): { dir: string; count: number } {
  if (stableDir) rmSync(stableDir, { recursive: true, force: true });
  const dir = stableDir ?? mkdtempSync(path.join(os.tmpdir(), 'sb-912-'));
  const records = JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as DatasetRecord[];
  const out: DatasetRecord[] = [];
  for (let k = 1; k <= repeat; k++) {
    for (const rec of records) {
      if (out.length === count) break;
      const newId = `${rec.id}-r${k}`;
      const folder = path.join(dir, 'spreadsheet', newId);
      mkdirSync(folder, { recursive: true });
      const source = path.join(DEV20, rec.spreadsheet_path);
      for (const file of readdirSync(source)) {
        const renamed = file.replace(`_${rec.id}_`, `_${newId}_`);
        symlinkSync(path.join(source, file), path.join(folder, renamed));
      }
      out.push({ ...rec, id: newId, spreadsheet_path: `spreadsheet/${newId}` });
    }
  }
  writeFileSync(path.join(dir, 'dataset.json'), JSON.stringify(out));
  return { dir, count: out.length };
}
