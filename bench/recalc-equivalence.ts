/**
 * Whether writing LibreOffice's results into a copy of the input (lib/recalc/cached_values.py) gives the values the
 * LibreOffice store gives: every workbook is recalculated both ways and every cell of every sheet is read back with the
 * scorer's reader (openpyxl's view: types, dates from number formats) and compared, exactly and by the official rule.
 * Files: the dev20 answers, the same with every cached value stripped (openpyxl-like), the dev20 inputs, and any
 * listed in --files-from (one path a line; copied first, never written).
 * Usage: node --import tsx bench/recalc-equivalence.ts [--files-from LIST] [--no-dev20]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import { LibreOfficeRecalculator } from '../lib/recalc/libreoffice';
import { openWorkbookValues, type WorkbookValues } from '../benchmarks/workbook/ooxmlReader';
import { compareCellValue, describeValue } from '../benchmarks/workbook/cellValue';
import { dev20Answers, dev20Inputs, copyInto } from './recalc-files';
import { stripCachedValues } from './recalc-strip-cache';

const { values: args } = parseArgs({
  options: { 'files-from': { type: 'string' }, 'no-dev20': { type: 'boolean', default: false } },
});

interface Difference {
  file: string;
  cell: string;
  stored: string;
  results: string;
  officialSame: boolean;
}

const work = await mkdtemp(path.join(os.tmpdir(), 'recalc-equivalence-'));
const viaStore = LibreOfficeRecalculator.create({ writeResults: false });
const viaResults = LibreOfficeRecalculator.create();
try {
  const files = await corpus(work);
  const differences: Difference[] = [];
  const storedBecause = new Map<string, number>();
  let written = 0;
  let copied = 0;
  let cells = 0;
  for (const [i, file] of files.entries()) {
    const a = path.join(work, 'store', `${i}.xlsx`);
    const b = path.join(work, 'results', `${i}.xlsx`);
    const [ra, rb] = [await viaStore.recalc(file, a), await viaResults.recalc(file, b)];
    if (!ra.ok || !rb.ok) {
      console.log(`failed: ${file}: store ${ra.error ?? 'ok'}, results ${rb.error ?? 'ok'}`);
      continue;
    }
    if (rb.copied) copied++;
    else if (rb.written === 'results') written++;
    else storedBecause.set(rb.storedBecause ?? '?', (storedBecause.get(rb.storedBecause ?? '?') ?? 0) + 1);
    const compared = await compareWorkbooks(await openWorkbookValues(a), await openWorkbookValues(b));
    cells += compared.cells;
    differences.push(...compared.differences.map((d) => ({ ...d, file })));
  }
  console.log(
    `${files.length} workbooks: ${written} written with results, ${copied} copied (no formula), ${files.length - written - copied} stored by LibreOffice`,
  );
  for (const [why, n] of storedBecause) console.log(`  stored (${n}): ${why}`);
  const officialDiffs = differences.filter((d) => !d.officialSame).length;
  console.log(
    `${cells} cells compared: ${differences.length} differ exactly, ${officialDiffs} by the official comparison`,
  );
  for (const d of differences.slice(0, 40))
    console.log(`  ${path.basename(d.file)} ${d.cell}: store ${d.stored} | results ${d.results}`);
} finally {
  await Promise.all([viaStore.close(), viaResults.close()]);
  await rm(work, { recursive: true, force: true });
}

async function corpus(dir: string): Promise<string[]> {
  const files: string[] = [];
  if (!args['no-dev20']) {
    const answers = await copyInto(path.join(dir, 'answers'), await dev20Answers());
    files.push(...answers, ...(await copyInto(path.join(dir, 'inputs'), await dev20Inputs())));
    for (const answer of answers) {
      const stripped = path.join(dir, 'answers', `stripped-${path.basename(answer)}`);
      await stripCachedValues(answer, stripped);
      files.push(stripped);
    }
  }
  if (args['files-from']) {
    const listed = (await readFile(args['files-from'], 'utf8')).split('\n').filter(Boolean);
    // One folder each: listed files from different places may share a name.
    for (const [i, file] of listed.entries())
      files.push(...(await copyInto(path.join(dir, 'listed', String(i)), [file])));
  }
  return files;
}

async function compareWorkbooks(a: WorkbookValues, b: WorkbookValues) {
  const differences: Omit<Difference, 'file'>[] = [];
  let cells = 0;
  if (!isDeepStrictEqual(a.sheetnames, b.sheetnames))
    differences.push({
      cell: 'sheet names',
      stored: a.sheetnames.join(','),
      results: b.sheetnames.join(','),
      officialSame: false,
    });
  for (const name of a.sheetnames.filter((n) => b.sheetnames.includes(n))) {
    const [sa, sb] = [await a.sheet(name), await b.sheet(name)];
    for (let row = 1; row <= Math.max(sa.maxRow, sb.maxRow); row++) {
      for (let col = 1; col <= Math.max(sa.maxColumn, sb.maxColumn); col++) {
        const [va, vb] = [sa.get(row, col), sb.get(row, col)];
        cells++;
        if (isDeepStrictEqual(va, vb)) continue;
        differences.push({
          cell: `${name}!R${row}C${col}`,
          stored: describeValue(va),
          results: describeValue(vb),
          officialSame: compareCellValue(va, vb),
        });
      }
    }
  }
  return { cells, differences };
}
