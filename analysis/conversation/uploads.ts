import path from 'node:path';
import { ConversationError } from './errors';

/** What a user may upload, by extension; the content must match (checked by `checkUpload`). */
const ALLOWED = new Set([
  '.csv',
  '.tsv',
  '.txt',
  '.json',
  '.xlsx',
  '.xls',
  '.parquet',
  '.png',
  '.jpg',
  '.jpeg',
  '.md',
  '.pdf',
]);
const TEXT = new Set(['.csv', '.tsv', '.txt', '.json', '.md']);

const MAGIC: Record<string, { bytes: number[]; what: string }> = {
  '.xlsx': { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'an XLSX workbook (a ZIP file)' },
  '.xls': { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an XLS workbook' },
  '.parquet': { bytes: [0x50, 0x41, 0x52, 0x31], what: 'a Parquet file' },
  '.png': { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  '.jpg': { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  '.jpeg': { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  '.pdf': { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
};

export interface CheckedUpload {
  filename: string;
  data: Buffer;
  /** Set when the bytes were changed (text re-encoded to UTF-8). */
  note?: string;
}

/**
 * Refuses names with paths, unknown types, and content that is not what the name says; text files in UTF-16 or a
 * single-byte encoding are re-encoded to UTF-8 (and the note says so), so the agent's code reads them plainly.
 */
export function checkUpload(name: string, data: Buffer, maxBytes: number): CheckedUpload {
  const filename = name.trim();
  if (!filename || filename.startsWith('.') || /[\\/\0]/.test(filename))
    throw new ConversationError('bad_input', `file name "${name}" is not allowed (a plain name, no folders)`);
  if (data.length > maxBytes)
    throw new ConversationError('too_large', `${filename} is ${data.length} bytes; the limit is ${maxBytes}`);
  const ext = path.extname(filename).toLowerCase();
  if (!ALLOWED.has(ext))
    throw new ConversationError(
      'refused_type',
      `${filename}: type "${ext || '(none)'}" is not accepted; accepted: ${[...ALLOWED].join(' ')}`,
    );
  const magic = MAGIC[ext];
  if (magic && !magic.bytes.every((b, i) => data[i] === b))
    throw new ConversationError(
      'refused_type',
      `${filename} is not ${magic.what}: its content does not match its name`,
    );
  if (!TEXT.has(ext)) return { filename, data };
  const text = asUtf8(filename, data);
  if (ext === '.json') {
    try {
      JSON.parse(text.data.toString('utf8'));
    } catch (err) {
      throw new ConversationError('refused_type', `${filename} is not valid JSON: ${(err as Error).message}`);
    }
  }
  return text;
}

function asUtf8(filename: string, data: Buffer): CheckedUpload {
  if (data[0] === 0xff && data[1] === 0xfe)
    return {
      filename,
      data: Buffer.from(data.subarray(2).toString('utf16le'), 'utf8'),
      note: 'converted from UTF-16 LE to UTF-8',
    };
  if (data[0] === 0xfe && data[1] === 0xff)
    return {
      filename,
      data: Buffer.from(swap16(data.subarray(2)).toString('utf16le'), 'utf8'),
      note: 'converted from UTF-16 BE to UTF-8',
    };
  const body = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? data.subarray(3) : data;
  if (body.includes(0))
    throw new ConversationError('refused_type', `${filename} is binary, not text: its content does not match its name`);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  try {
    utf8.decode(body);
    return { filename, data: Buffer.from(body), ...(body !== data ? { note: 'byte-order mark removed' } : {}) };
  } catch {
    return {
      filename,
      data: Buffer.from(new TextDecoder('windows-1252').decode(body), 'utf8'),
      note: 'converted from Windows-1252 (Latin-1) to UTF-8',
    };
  }
}

function swap16(b: Buffer): Buffer {
  const out = Buffer.from(b.subarray(0, b.length - (b.length % 2)));
  return out.swap16();
}
