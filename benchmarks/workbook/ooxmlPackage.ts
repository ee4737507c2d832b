/**
 * An xlsx file as OOXML parts: the zip read once, each part inflated on demand, relationships resolved to part names.
 * The small parts (relationships, workbook.xml, styles.xml) are read with the element scanner (xmlScan.ts), as the
 * sheets are: a generic XML-to-object parser cost more than the cells themselves.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ZipArchive } from '../../lib/xlsx/zipArchive';
import { attributesOf, elements } from './xmlScan';

export class WorkbookReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkbookReadError';
  }
}

export interface Relationship {
  id: string;
  type: string;
  /** The target part's name in the package ('' for an external target). */
  target: string;
}

const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromPart), target));
}

function relsPathOf(part: string): string {
  return path.posix.join(path.posix.dirname(part), '_rels', `${path.posix.basename(part)}.rels`);
}

export class OoxmlPackage {
  constructor(private readonly zip: ZipArchive) {}

  has(part: string): boolean {
    return this.zip.has(part);
  }

  /** Every part's name in the package. */
  partNames(): string[] {
    return this.zip.names();
  }

  text(part: string): string | undefined {
    return this.zip.text(part);
  }

  /** The part's relationships (`_rels/<part>.rels`), targets resolved against the part. */
  rels(part: string): Relationship[] {
    const text = this.text(relsPathOf(part));
    if (text === undefined) return [];
    return [...elements(text, 'Relationship')].map((el) => {
      const a = attributesOf(el.attrs);
      return {
        id: a.Id ?? '',
        type: a.Type ?? '',
        target: a.TargetMode === 'External' ? '' : resolveTarget(part, a.Target ?? ''),
      };
    });
  }

  /** The workbook part named by the package's officeDocument relationship. */
  officeDocumentPart(): string {
    const doc = this.rels('').find((r) => r.type.endsWith('/officeDocument'));
    const part = doc?.target ?? 'xl/workbook.xml';
    if (!this.has(part)) throw new WorkbookReadError('no workbook part (not an xlsx file)');
    return part;
  }
}

/** Reads the file and its zip directory; throws WorkbookReadError where openpyxl would fail to open it. */
export function openPackage(file: string): OoxmlPackage {
  let bytes: Buffer;
  try {
    // One synchronous read: the parse after it is synchronous anyway, and the promise API's open/fstat/read/close
    // round trips through the thread pool cost more CPU than the read itself.
    bytes = readFileSync(file);
  } catch (err) {
    throw new WorkbookReadError(
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  if (bytes.subarray(0, 8).equals(CFB_MAGIC)) {
    throw new WorkbookReadError(
      'File is not a zip file (OLE2/CFB container: a password-protected workbook or a legacy .xls)',
    );
  }
  try {
    return new OoxmlPackage(new ZipArchive(bytes));
  } catch (err) {
    throw new WorkbookReadError(`File is not a zip file (${(err as Error).message})`);
  }
}
