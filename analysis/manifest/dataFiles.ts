import { extname } from 'node:path';

/** Data files bigger than this are not parsed for validation (nor would a chart of them be readable). */
export const MAX_DATA_FILE_BYTES = 20 * 1024 * 1024;

export interface TableShape {
  columns: string[];
  rowCount: number;
}

/** Columns and row count of a CSV/TSV or JSON (array of records) file's text; throws a message the model can act on. */
export function tableShape(text: string, displayPath: string): TableShape {
  const clean = text.replace(/^\uFEFF/, '');
  const ext = extname(displayPath).toLowerCase();
  if (ext === '.json') return jsonShape(clean, displayPath);
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt')
    return csvShape(clean, ext === '.tsv' ? '\t' : ',', displayPath);
  throw new Error(`data file ${displayPath} must be .csv, .tsv or .json (an array of records)`);
}

function jsonShape(text: string, displayPath: string): TableShape {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`data file ${displayPath} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  if (!Array.isArray(value) || !value.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) {
    throw new Error(
      `data file ${displayPath} must hold a JSON array of records (objects), e.g. df.to_json(path, orient="records")`,
    );
  }
  const columns = [...new Set(value.flatMap((r) => Object.keys(r as object)))];
  return { columns, rowCount: value.length };
}

/** RFC 4180 fields: quoted fields may hold separators, doubled quotes and newlines. */
export function parseCsv(text: string, sep = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function csvShape(text: string, sep: string, displayPath: string): TableShape {
  let rows: string[][];
  try {
    rows = parseCsv(text, sep);
  } catch (err) {
    throw new Error(`data file ${displayPath} is not parseable CSV: ${(err as Error).message}`, { cause: err });
  }
  const [header, ...body] = rows;
  if (!header || header.every((h) => h.trim() === ''))
    throw new Error(`data file ${displayPath} is empty (no header row)`);
  const bad = body.findIndex((r) => r.length !== header.length && !(r.length === 1 && r[0] === ''));
  if (bad >= 0)
    throw new Error(
      `data file ${displayPath}: row ${bad + 2} has ${body[bad].length} fields, the header has ${header.length}`,
    );
  return { columns: header, rowCount: body.filter((r) => !(r.length === 1 && r[0] === '')).length };
}
