/**
 * The images a Visualization task is judged on, chosen as SpreadsheetBench 2's release chooses them
 * (run_visual_vlm_checklist_eval.py, `evaluate_task`):
 * - `png_output`: an `<id>_output.png` the agent wrote beside its output workbook, alone, preferred over the workbook
 *   (and enough without one);
 * - `xlsx_export`: else every chart exported from the output workbook (several are routed chart by chart:
 *   chartGroups.ts);
 * - `stitched_fallback`: when fewer charts were exported than the workbook holds, the exported ones stitched into one
 *   image (lib/png/stitchPngs.ts), judged in one call without routing; an export that cannot be stitched keeps the
 *   separate images, as the release keeps them when stitching fails.
 */
import { access, lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { exportChartImages, type ChartImage } from '../../../lib/recalc/chartImages';
import { PNG_SIGNATURE, PngError } from '../../../lib/png/decodePng';
import { stitchPngs } from '../../../lib/png/stitchPngs';
import { chartSummaries } from '../../workbook/chartParts';

export const IMAGE_SOURCES = ['png_output', 'xlsx_export', 'stitched_fallback'] as const;
export type ImageSource = (typeof IMAGE_SOURCES)[number];

export interface JudgedImages {
  source: ImageSource;
  charts: ChartImage[];
  /** How many charts the workbook holds (its chart parts), when the images were exported from it. */
  chartsInWorkbook?: number;
}

/** A problem that leaves nothing to judge, said for the task's judgment. */
export class JudgedImageProblem extends Error {
  override name = 'JudgedImageProblem';
}

const isFile = (file: string) =>
  lstat(file).then(
    (st) => st.isFile(),
    () => false,
  );

/** The agent's `<id>_output.png`, when there is one (a link or a folder is not taken). */
async function outputImage(image: string): Promise<ChartImage | undefined> {
  if (!(await isFile(image))) return undefined;
  const png = await readFile(image);
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE))
    throw new JudgedImageProblem(`its output image ${path.basename(image)} is not a PNG`);
  return { label: path.basename(image), title: '', png };
}

/** The number of charts the workbook holds, -1 when it cannot be read (as the release's count). */
function chartsInWorkbook(workbook: string): number {
  try {
    return chartSummaries(workbook).length;
  } catch {
    return -1;
  }
}

/** The exported charts, or one stitched image of them when the export missed some of the workbook's charts. */
export function withStitchedFallback(charts: ChartImage[], inWorkbook: number): JudgedImages {
  if (!(inWorkbook > charts.length) || !charts.length)
    return { source: 'xlsx_export', charts, chartsInWorkbook: inWorkbook };
  try {
    const png = stitchPngs(charts.map((c) => c.png));
    const label = `${charts.length} of ${inWorkbook} charts stitched`;
    return { source: 'stitched_fallback', charts: [{ label, title: '', png }], chartsInWorkbook: inWorkbook };
  } catch (err) {
    if (!(err instanceof PngError)) throw err;
    return { source: 'xlsx_export', charts, chartsInWorkbook: inWorkbook };
  }
}

/**
 * The images to judge: the agent's output image, else the workbook's charts (stitched when some did not export).
 * `undefined` when there is neither an image nor a workbook. Export failures are the exporter's ChartExportError.
 */
export async function judgedImages(
  workbook: string,
  image: string,
  opts: { exportTimeoutMs: number },
): Promise<JudgedImages | undefined> {
  const own = await outputImage(image);
  if (own) return { source: 'png_output', charts: [own] };
  const present = await access(workbook).then(
    () => true,
    () => false,
  );
  if (!present) return undefined;
  const charts = await exportChartImages(workbook, { timeoutMs: opts.exportTimeoutMs });
  return withStitchedFallback(charts, chartsInWorkbook(workbook));
}
