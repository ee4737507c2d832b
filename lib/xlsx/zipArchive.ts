/**
 * Minimal synchronous ZIP reader (stored and deflate entries) on node:zlib. JSZip inflates in setImmediate-paced
 * chunks, which left a 2.6 MB workbook idle for seconds; reading the central directory and inflating one part at a
 * time is synchronous and fast. ZIP64 archives are rejected with a clear error.
 */
import { inflateRawSync } from 'node:zlib';

export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

interface Entry {
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

function findEndOfCentralDirectory(buf: Buffer): number {
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= stop; i--) if (buf.readUInt32LE(i) === EOCD_SIGNATURE) return i;
  throw new ZipFormatError('File is not a zip file (no end of central directory)');
}

export class ZipArchive {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly buf: Buffer) {
    const eocd = findEndOfCentralDirectory(buf);
    const count = buf.readUInt16LE(eocd + 10);
    let offset = buf.readUInt32LE(eocd + 16);
    if (offset === 0xffffffff || count === 0xffff) throw new ZipFormatError('ZIP64 archives are not supported');
    for (let i = 0; i < count; i++) {
      if (offset + 46 > buf.length || buf.readUInt32LE(offset) !== CENTRAL_SIGNATURE)
        throw new ZipFormatError('corrupt zip central directory');
      const nameLength = buf.readUInt16LE(offset + 28);
      const name = buf.toString('utf8', offset + 46, offset + 46 + nameLength);
      this.entries.set(name, {
        method: buf.readUInt16LE(offset + 10),
        compressedSize: buf.readUInt32LE(offset + 20),
        localHeaderOffset: buf.readUInt32LE(offset + 42),
      });
      offset += 46 + nameLength + buf.readUInt16LE(offset + 30) + buf.readUInt16LE(offset + 32);
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Every entry's name, in central-directory order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  text(name: string): string | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    const at = entry.localHeaderOffset;
    if (at + 30 > this.buf.length || this.buf.readUInt32LE(at) !== LOCAL_SIGNATURE)
      throw new ZipFormatError(`corrupt zip entry ${name}`);
    const start = at + 30 + this.buf.readUInt16LE(at + 26) + this.buf.readUInt16LE(at + 28);
    const data = this.buf.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) return data.toString('utf8');
    if (entry.method === 8) return inflateRawSync(data).toString('utf8');
    throw new ZipFormatError(`zip entry ${name} uses unsupported compression method ${entry.method}`);
  }
}
