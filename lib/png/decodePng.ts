/**
 * A PNG decoded to 8-bit RGB over a white background (what a stitched chart image is drawn from). Reads the forms
 * chart exporters write: bit depth 8, not interlaced, grey, RGB, palette (with tRNS), grey+alpha or RGBA; anything else
 * is a PngError naming what it is.
 */
import { inflateSync } from 'node:zlib';

export class PngError extends Error {
  override name = 'PngError';
}

export interface RgbImage {
  width: number;
  height: number;
  /** width × height × 3 bytes, row by row. */
  rgb: Buffer;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

interface Chunks {
  width: number;
  height: number;
  colorType: number;
  palette?: Buffer;
  transparency?: Buffer;
  data: Buffer;
}

function readChunks(png: Buffer): Chunks {
  if (png.length < 8 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new PngError('not a PNG (no PNG signature)');
  const parts: Partial<Chunks> = {};
  const data: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      const [depth, colorType, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || !(colorType in CHANNELS))
        throw new PngError(`unsupported PNG (bit depth ${depth}, colour type ${colorType}, interlace ${interlace})`);
      Object.assign(parts, { width: body.readUInt32BE(0), height: body.readUInt32BE(4), colorType });
    } else if (type === 'PLTE') parts.palette = body;
    else if (type === 'tRNS') parts.transparency = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (parts.width === undefined) throw new PngError('a PNG without its IHDR header');
  return { ...(parts as Chunks), data: Buffer.concat(data) };
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** The raw samples, scanline filters undone. */
function unfiltered(raw: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  if (raw.length < height * (stride + 1)) throw new PngError('a PNG whose image data is shorter than its size says');
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp] : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (predictor === undefined) throw new PngError(`a PNG scanline with unknown filter ${filter}`);
      out[y * stride + x] = (line[x] + predictor) & 0xff;
    }
  }
  return out;
}

/** One pixel as RGBA from its samples. */
function rgbaOf(chunks: Chunks, s: Buffer, i: number): [number, number, number, number] {
  switch (chunks.colorType) {
    case 0:
      return [s[i], s[i], s[i], 255];
    case 2:
      return [s[i], s[i + 1], s[i + 2], 255];
    case 3: {
      const p = s[i] * 3;
      if (!chunks.palette || p + 2 >= chunks.palette.length)
        throw new PngError('a palette PNG index out of its palette');
      return [chunks.palette[p], chunks.palette[p + 1], chunks.palette[p + 2], chunks.transparency?.[s[i]] ?? 255];
    }
    case 4:
      return [s[i], s[i], s[i], s[i + 1]];
    default:
      return [s[i], s[i + 1], s[i + 2], s[i + 3]];
  }
}

export function decodePng(png: Buffer): RgbImage {
  const chunks = readChunks(png);
  const { width, height } = chunks;
  const bpp = CHANNELS[chunks.colorType];
  let raw: Buffer;
  try {
    raw = inflateSync(chunks.data);
  } catch (err) {
    throw new PngError(`a PNG whose image data does not inflate: ${(err as Error).message}`);
  }
  const samples = unfiltered(raw, width, height, bpp);
  const rgb = Buffer.alloc(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    const [r, g, b, a] = rgbaOf(chunks, samples, p * bpp);
    const over = (v: number) => Math.round((v * a + 255 * (255 - a)) / 255);
    rgb[p * 3] = over(r);
    rgb[p * 3 + 1] = over(g);
    rgb[p * 3 + 2] = over(b);
  }
  return { width, height, rgb };
}
