/**
 * PNG images stacked top to bottom into one, as SpreadsheetBench 2's release stitches a workbook's charts
 * (run_visual_vlm_checklist_eval.py, `combine_images`): as wide as the widest, as tall as all together, each centred
 * across on a white background. A PNG it cannot read is a PngError (decodePng.ts).
 */
import { decodePng, PngError, type RgbImage } from './decodePng';
import { encodePng } from './encodePng';

export function stitchPngs(pngs: readonly Buffer[]): Buffer {
  if (!pngs.length) throw new PngError('no images to stitch');
  const images = pngs.map(decodePng);
  const width = Math.max(...images.map((i) => i.width));
  const height = images.reduce((h, i) => h + i.height, 0);
  const out: RgbImage = { width, height, rgb: Buffer.alloc(width * height * 3, 0xff) };
  let top = 0;
  for (const image of images) {
    const left = Math.floor((width - image.width) / 2);
    for (let y = 0; y < image.height; y++)
      image.rgb.copy(out.rgb, ((top + y) * width + left) * 3, y * image.width * 3, (y + 1) * image.width * 3);
    top += image.height;
  }
  return encodePng(out);
}
