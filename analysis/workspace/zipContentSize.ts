/**
 * The uncompressed size a ZIP archive (an .xlsx) declares in its central directory, read without inflating anything:
 * what to check before a workbook from the workspace is parsed in the worker process (a small file can inflate to
 * gigabytes). Undefined when the archive is not a readable ZIP, or uses ZIP64 sizes (treat both as too big).
 */

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;
const ZIP64_MARK = 0xffffffff;

export function declaredUnzippedBytes(zip: Buffer): number | undefined {
  const eocd = findEndOfCentralDirectory(zip);
  if (eocd === undefined) return undefined;
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  let total = 0;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_SIGNATURE) return undefined;
    const size = zip.readUInt32LE(at + 24);
    if (size === ZIP64_MARK) return undefined;
    total += size;
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return total;
}

function findEndOfCentralDirectory(zip: Buffer): number | undefined {
  const lowest = Math.max(0, zip.length - EOCD_MIN - MAX_COMMENT);
  for (let at = zip.length - EOCD_MIN; at >= lowest; at--) if (zip.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  return undefined;
}
