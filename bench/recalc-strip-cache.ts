import JSZip from 'jszip';
import { readFile, writeFile } from 'node:fs/promises';

const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
const FORMULA_ATTRS = /<f\b([^>]*)>/g;

/**
 * Removes the cached value (`<v>`) of every formula cell and of every cell inside an array formula's range, in every
 * worksheet; everything else is kept byte for byte. This makes the workbook look written by openpyxl: formulas only.
 * Returns how many cached values were removed.
 */
export async function stripCachedValues(inputPath: string, outputPath: string): Promise<number> {
  const zip = await JSZip.loadAsync(await readFile(inputPath));
  let removed = 0;
  for (const name of worksheetParts(zip)) {
    const xml = await zip.file(name)!.async('string');
    const arrayCells = arrayRangeCells(xml);
    const stripped = xml.replace(CELL, (whole: string, attrs: string, body: string | undefined) => {
      if (body === undefined || !body.includes('<v')) return whole;
      const address = /\br="([A-Z]+\d+)"/.exec(attrs)?.[1];
      if (!body.includes('<f') && !(address && arrayCells.has(address))) return whole;
      removed++;
      // A cell without a value must not claim a value type (t="s" would point into sharedStrings).
      const keptAttrs = attrs.replace(/\s+t="[^"]*"/, '');
      return `<c${keptAttrs}>${body.replace(/<v>[\s\S]*?<\/v>|<v\s*\/>/, '')}</c>`;
    });
    zip.file(name, stripped);
  }
  await writeFile(outputPath, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
  return removed;
}

function arrayRangeCells(xml: string): Set<string> {
  const cells = new Set<string>();
  for (const [, attrs] of xml.matchAll(FORMULA_ATTRS)) {
    const ref = /\bref="([A-Z]+\d+(?::[A-Z]+\d+)?)"/.exec(attrs)?.[1];
    if (!/\bt="array"/.test(attrs) || !ref) continue;
    const [from, to = from] = ref.split(':');
    const a = splitAddress(from);
    const b = splitAddress(to);
    for (let row = a.row; row <= b.row; row++) {
      for (let col = a.col; col <= b.col; col++) cells.add(`${columnLetters(col)}${row}`);
    }
  }
  return cells;
}

function splitAddress(address: string): { col: number; row: number } {
  const [, letters, digits] = /^([A-Z]+)(\d+)$/.exec(address)!;
  const col = [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  return { col, row: Number(digits) };
}

function columnLetters(col: number): string {
  let out = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

function worksheetParts(zip: JSZip): string[] {
  return Object.keys(zip.files).filter((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n));
}

/** Formula cells stored without a cached value (an answer file like that cannot be matched by any recalculation). */
export async function uncachedFormulaCount(inputPath: string): Promise<number> {
  const zip = await JSZip.loadAsync(await readFile(inputPath));
  let count = 0;
  for (const name of worksheetParts(zip)) {
    const xml = await zip.file(name)!.async('string');
    for (const [, , body] of xml.matchAll(CELL)) {
      if (body?.includes('<f') && !/<v>[^<]/.test(body)) count++;
    }
  }
  return count;
}
