/**
 * The PNG stitcher against images written by another library (Pillow in the sandbox's Python): RGB, RGBA, palette with
 * transparency and grey, of different sizes; the stitched image is decoded back by Pillow and checked pixel by pixel
 * where each image should be (centred across, stacked top to bottom, white around).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stitchPngs } from '../../lib/png/stitchPngs';
import { decodePng, PngError } from '../../lib/png/decodePng';
import { hasSandboxPython, runPython } from '../scoring/oracle';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'stitch-png-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MAKE = `
import sys
from PIL import Image
d = sys.argv[1]
Image.new("RGB", (4, 2), (200, 10, 20)).save(d + "/rgb.png")
rgba = Image.new("RGBA", (2, 3), (0, 0, 255, 255)); rgba.putpixel((0, 0), (0, 0, 0, 0)); rgba.save(d + "/rgba.png")
p = Image.new("P", (3, 1)); p.putpalette([0, 255, 0, 9, 9, 9] + [0] * 762); p.putpixel((2, 0), 1); p.save(d + "/pal.png", transparency=1)
Image.new("L", (1, 1), 77).save(d + "/grey.png")
`;

const READ = `
import sys, json
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
print(json.dumps({"size": im.size, "px": [list(im.getpixel((x, y))) for y in range(im.size[1]) for x in range(im.size[0])]}))
`;

describe.skipIf(!hasSandboxPython)('stitchPngs', () => {
  it('stacks the images as the release does: widest width, heights summed, each centred, white elsewhere', () => {
    runPython(['-c', MAKE, tmp], '');
    const pngs = ['rgb', 'rgba', 'pal', 'grey'].map((n) => readFileSync(path.join(tmp, `${n}.png`)));
    writeFileSync(path.join(tmp, 'out.png'), stitchPngs(pngs));
    const { size, px } = JSON.parse(runPython(['-c', READ, path.join(tmp, 'out.png')], '')) as {
      size: [number, number];
      px: number[][];
    };
    expect(size).toEqual([4, 2 + 3 + 1 + 1]);
    const at = (x: number, y: number) => px[y * 4 + x];
    const W = [255, 255, 255];
    // rgb: rows 0-1, full width.
    expect([at(0, 0), at(3, 1)]).toEqual([
      [200, 10, 20],
      [200, 10, 20],
    ]);
    // rgba (2 wide): rows 2-4, columns 1-2; its transparent pixel is white; columns 0 and 3 white.
    expect([at(0, 2), at(1, 2), at(2, 2), at(3, 2), at(1, 4)]).toEqual([W, W, [0, 0, 255], W, [0, 0, 255]]);
    // palette (3 wide): row 5, columns 0-2 (left = floor(1/2) = 0); index 1 is transparent: white.
    expect([at(0, 5), at(1, 5), at(2, 5), at(3, 5)]).toEqual([[0, 255, 0], [0, 255, 0], W, W]);
    // grey (1 wide): row 6, column 1 (floor(3/2)).
    expect([at(0, 6), at(1, 6), at(2, 6)]).toEqual([W, [77, 77, 77], W]);
  });

  it('names what it cannot read', () => {
    expect(() => decodePng(Buffer.from('not a png'))).toThrow(new PngError('not a PNG (no PNG signature)'));
    expect(() => stitchPngs([])).toThrow(PngError);
  });
});
