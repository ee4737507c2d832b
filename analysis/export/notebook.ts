import path from 'node:path';
import type { VisualizationOutput } from '../conversation/types';
import type { Cell } from './cells';
import { parseCsv } from '../manifest/dataFiles';

/** Rows of a table output shown in the notebook (the whole table is in its data file). */
const TABLE_ROWS = 50;
const IMAGE_BYTES = 5 * 1024 * 1024;

type Read = (workspacePath: string) => Promise<Buffer | undefined>;

/** The cells as a Jupyter notebook, nbformat 4.5 (cell ids), Python 3 kernel. */
export async function notebookJson(
  cells: Cell[],
  meta: { conversationId: string; turnId?: string; exportedAt: string },
  read: Read,
): Promise<object> {
  let count = 0;
  const out = [];
  for (const [i, cell] of cells.entries()) {
    const base = { id: `cell-${i + 1}`, metadata: {}, source: cell.type === 'code' ? cell.code : cell.text };
    if (cell.type === 'markdown') out.push({ ...base, cell_type: 'markdown' });
    else out.push({ ...base, cell_type: 'code', execution_count: ++count, outputs: await codeOutputs(cell, read) });
  }
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python', file_extension: '.py', mimetype: 'text/x-python' },
      sheetbench: {
        conversationId: meta.conversationId,
        ...(meta.turnId ? { turnId: meta.turnId } : {}),
        exportedAt: meta.exportedAt,
      },
    },
    cells: out,
  };
}

async function codeOutputs(cell: Extract<Cell, { type: 'code' }>, read: Read): Promise<object[]> {
  const outputs: object[] = [];
  if (cell.stdout) outputs.push({ output_type: 'stream', name: 'stdout', text: cell.stdout });
  if (cell.stderr) outputs.push({ output_type: 'stream', name: 'stderr', text: cell.stderr });
  for (const v of cell.outputs)
    outputs.push({ output_type: 'display_data', data: await displayData(v, read), metadata: {} });
  return outputs;
}

/** A table as HTML and text, an image as PNG/SVG, a chart as a line naming it and its data file. */
async function displayData(v: VisualizationOutput, read: Read): Promise<Record<string, string>> {
  const title = v.title ? `${v.title} ` : '';
  const file = v.type === 'image' ? (v as VisualizationOutput & { file?: string }).file : v.dataFile;
  const bytes = file ? await read(file) : undefined;
  const rows = v.type === 'table' && bytes ? tableRows(bytes) : undefined;
  if (rows) {
    return {
      'text/html': htmlTable(rows, v.title),
      'text/plain': `${title}(${file})\n${rows.map((r) => r.join('\t')).join('\n')}`,
    };
  }
  if (v.type === 'image' && bytes && bytes.length <= IMAGE_BYTES) {
    if (path.extname(file!).toLowerCase() === '.svg')
      return { 'image/svg+xml': bytes.toString('utf8'), 'text/plain': `${title}(${file})` };
    if (path.extname(file!).toLowerCase() === '.png')
      return { 'image/png': bytes.toString('base64'), 'text/plain': `${title}(${file})` };
  }
  const where = file ? (bytes ? ` from ${file}` : ` (${file} is no longer in the workspace)`) : '';
  return { 'text/plain': `[${v.type} ${title}${where}]`.replace(/ \]$/, ']') };
}

function htmlTable(rows: string[][], title?: string): string {
  const esc = (s: string) =>
    s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const [head = [], ...body] = rows;
  const caption = title ? `<caption>${esc(title)}</caption>` : '';
  return `<table>${caption}<thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${body.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

/** The first rows of a CSV table output; undefined when the file is not valid CSV (shown as a line naming it). */
function tableRows(bytes: Buffer): string[][] | undefined {
  try {
    return parseCsv(bytes.toString('utf8')).slice(0, TABLE_ROWS + 1);
  } catch {
    return undefined;
  }
}
