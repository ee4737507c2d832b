import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writesOutsideRegion } from '../../benchmarks/spreadsheetbench/agents/checkedVote/strayWrites';
import { pythonWorkbook } from '../helpers/pythonWorkbook';

describe('cells a candidate changed outside the answer region', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cv-stray-'));
  const input = path.join(dir, 'in.xlsx');
  pythonWorkbook(input, {
    Before: { A1: 'PO', G1: 'Ship', K1: 'Last', G2: 5, G3: 6, G4: 7, K4: 1 },
    'Other sheet': { A1: 1 },
  });

  it('names them as column runs on the answer sheet, quoting sheet names that need it', async () => {
    const output = path.join(dir, 'out.xlsx');
    // What the 1.5B did on 599-9: the answer column K counted as column 9 (I).
    pythonWorkbook(output, {
      Before: { A1: 'PO', G1: 'Ship', K1: 'Last', G2: 5, G3: 6, G4: 7, K4: 1, I2: 5, I3: 6, I4: 7, B7: 'x' },
      'Other sheet': { A1: 2 },
    });
    expect(await writesOutsideRegion(input, output, "'Before'!K2:K4")).toEqual(['Before!B7', 'Before!I2:I4']);
    // The other sheet counts when the region is on it; the region's own cells never do.
    expect(await writesOutsideRegion(input, output, "'Other sheet'!B1")).toEqual(["'Other sheet'!A1"]);
    expect(await writesOutsideRegion(input, output, "'Before'!A1:K9")).toEqual([]);
  });

  it('finds nothing when only the region changed, and counts what it does not name', async () => {
    const inRegion = path.join(dir, 'region.xlsx');
    pythonWorkbook(inRegion, {
      Before: { A1: 'PO', G1: 'Ship', K1: 'Last', G2: 5, G3: 6, G4: 7, K2: 5, K3: 6, K4: 7 },
    });
    expect(await writesOutsideRegion(input, inRegion, "'Before'!K2:K4")).toEqual([]);
    const scattered = path.join(dir, 'scattered.xlsx');
    const cells: Record<string, number> = { A1: 1 };
    for (const col of ['B', 'C', 'D', 'E', 'F', 'H']) cells[`${col}9`] = 1;
    pythonWorkbook(scattered, { Before: cells });
    const named = await writesOutsideRegion(input, scattered, "'Before'!K2:K4");
    expect(named).toHaveLength(5);
    expect(named[4]).toMatch(/^and \d+ more range\(s\)$/);
  });
});
