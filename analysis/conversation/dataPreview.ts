import ExcelJS from 'exceljs';
import { readInWorkspace, readWholeInWorkspace } from '../workspace/safeFiles';
import { declaredUnzippedBytes } from '../workspace/zipContentSize';
import { MANIFEST_FILE } from '../manifest/schema';

/**
 * A short preview of the user's data files for the model's first prompt of a turn: each table's exact column names and
 * first rows. Small models otherwise guess the columns (`df['Total Amount']` for `amount`) and their code fails with a
 * KeyError before computing anything (measured with the embedded 0.5B on the analysis suite).
 */

/** Data files previewed per turn (the first ones by path). */
const MAX_FILES = 4;
/** Rows shown per file. */
const ROWS = 3;
/** Bytes read from a CSV or JSON file (its header and first rows are at the top). */
const HEAD_BYTES = 16 * 1024;
/** A workbook is parsed whole in the worker: larger ones (file, or what it declares it inflates to) are not previewed. */
const MAX_WORKBOOK_BYTES = 5 * 1024 * 1024;
const MAX_WORKBOOK_UNZIPPED = 40 * 1024 * 1024;
/** Characters of one cell or line shown. */
const CELL_CHARS = 40;
const LINE_CHARS = 300;

const DATA_FILE = /\.(csv|tsv|json|xlsx)$/i;

/** The preview section for the workspace files at `paths` (workspace-relative); '' when none is a data file. */
export async function dataPreview(workspace: string, paths: string[]): Promise<string> {
  const files = paths.filter((p) => DATA_FILE.test(p) && !isToolOutput(p)).slice(0, MAX_FILES);
  const parts: string[] = [];
  for (const file of files) {
    const preview = await previewFile(workspace, file).catch(() => undefined); // unreadable or refused: not previewed, the model can still open it
    if (preview) parts.push(`${file}:\n${preview}`);
  }
  return parts.length ? `Preview of the data files (exact column names, first rows):\n${parts.join('\n')}` : '';
}

/** Files the tools wrote: tables, figures and the visualization manifest (listed, not previewed). */
export function isToolOutput(file: string): boolean {
  return /^(viz|figures)\//.test(file) || file === MANIFEST_FILE;
}

async function previewFile(workspace: string, file: string): Promise<string | undefined> {
  if (/\.xlsx$/i.test(file)) return previewWorkbook(await readWholeInWorkspace(workspace, file, MAX_WORKBOOK_BYTES));
  const { data, size } = await readInWorkspace(workspace, file, HEAD_BYTES);
  const text = data.toString('utf8');
  if (/\.json$/i.test(file)) return previewJson(text, size > data.length);
  return previewDelimited(text, /\.tsv$/i.test(file) ? '\t' : ',');
}

function previewDelimited(text: string, separator: string): string | undefined {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  if (!lines.length) return undefined;
  const [header, ...rows] = lines;
  const columns = header.split(separator).map((c) => c.trim().replace(/^"|"$/g, ''));
  return [`  columns: ${columns.join(', ')}`, ...rows.slice(0, ROWS).map((r) => `  ${cut(r, LINE_CHARS)}`)].join('\n');
}

function previewJson(text: string, truncated: boolean): string {
  const parsed = truncated ? undefined : safeJson(text);
  const records = Array.isArray(parsed) ? parsed : undefined;
  const first = records?.[0];
  if (records && first && typeof first === 'object' && !Array.isArray(first)) {
    const keys = Object.keys(first as Record<string, unknown>);
    const rows = records.slice(0, ROWS).map((r) => `  ${cut(JSON.stringify(r), LINE_CHARS)}`);
    return [`  a JSON list of ${records.length} records with keys: ${keys.join(', ')}`, ...rows].join('\n');
  }
  return `  ${cut(text.replace(/\s+/g, ' '), LINE_CHARS)}`;
}

async function previewWorkbook(data: Buffer): Promise<string | undefined> {
  const unzipped = declaredUnzippedBytes(data);
  if (unzipped === undefined || unzipped > MAX_WORKBOOK_UNZIPPED) return '  (a workbook too large to preview here)';
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
  const parts: string[] = [];
  for (const sheet of workbook.worksheets.slice(0, MAX_FILES)) {
    const rows: string[] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      if (rows.length > ROWS) return;
      const values = (row.values as unknown[]).slice(1).map((v) => cut(cellText(v), CELL_CHARS));
      rows.push(values.join(', '));
    });
    if (!rows.length) continue;
    const [header, ...body] = rows;
    parts.push(`  sheet ${sheet.name}: columns: ${header}`, ...body.map((r) => `  ${r}`));
  }
  return parts.join('\n') || undefined;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as { result?: unknown; text?: unknown; richText?: Array<{ text: string }> };
    if (v.result !== undefined) return cellText(v.result);
    if (typeof v.text === 'string') return v.text;
    if (v.richText) return v.richText.map((t) => t.text).join('');
    return JSON.stringify(value);
  }
  return String(value);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
