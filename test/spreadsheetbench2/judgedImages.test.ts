/**
 * The images a Visualization task is judged on, chosen as the release chooses them (judgedImages.ts): the agent's
 * `<id>_output.png` first (even without a workbook; one image, one call on the whole checklist), else the workbook's
 * exported charts, stitched into one image when fewer exported than the workbook holds (the release's
 * `stitched_fallback`), and left separate when they cannot be stitched.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judgedImages, withStitchedFallback } from '../../benchmarks/spreadsheetbench2/visualization/judgedImages';
import { prepareCharts } from '../../benchmarks/spreadsheetbench2/visualization/preparedCharts';
import { chartGroups } from '../../benchmarks/spreadsheetbench2/visualization/chartGroups';
import { decodePng } from '../../lib/png/decodePng';
import { encodePng } from '../../lib/png/encodePng';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-judged-images-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const solid = (width: number, height: number, v: number) =>
  encodePng({ width, height, rgb: Buffer.alloc(width * height * 3, v) });
const task = {
  id: 'v1',
  instruction: 'chart',
  spreadsheet_path: 'in.xlsx',
  golden_response_path: 'a.xlsx',
  answer_position: 'A1',
  category: 'Visualization',
  categoryDir: tmp,
  criteria: [
    { id: 1, instruction: 'a bar chart', chart: 'Sales' },
    { id: 2, instruction: 'two charts in all' },
  ],
};
const limits = { maxCharts: 10, maxImageBytes: 10_000_000, exportTimeoutMs: 120_000 };

describe('the images a Visualization task is judged on', () => {
  it("takes the agent's <id>_output.png alone, without a workbook, and judges the whole checklist on it", async () => {
    const image = path.join(tmp, 'v1_output.png');
    writeFileSync(image, solid(5, 4, 9));
    const missingWorkbook = path.join(tmp, 'v1_output.xlsx');
    const chosen = await judgedImages(missingWorkbook, image, limits);
    expect(chosen).toMatchObject({ source: 'png_output', charts: [{ label: 'v1_output.png', title: '' }] });
    expect(chosen?.charts[0].png.equals(solid(5, 4, 9))).toBe(true);
    const prepared = await prepareCharts(tmp, task, 'v1', { workbook: missingWorkbook, image }, limits);
    expect(prepared.ready && prepared.stored).toMatchObject({
      source: 'png_output',
      charts: [{ label: 'v1_output.png' }],
      groups: [{ charts: [0], items: [1, 2] }],
    });
  });

  it('names an output image that is no PNG, and takes no link as the image', async () => {
    const image = path.join(tmp, 'bad_output.png');
    writeFileSync(image, 'GIF89a not a png');
    const prepared = await prepareCharts(tmp, task, 'v1', { workbook: path.join(tmp, 'none.xlsx'), image }, limits);
    expect(prepared).toEqual({
      ready: false,
      judgment: {
        taskId: 'v1',
        verdict: 'export_failed',
        accuracy: 0,
        message: 'task v1: its output image bad_output.png is not a PNG',
      },
    });
    const link = path.join(tmp, 'link_output.png');
    symlinkSync(path.join(tmp, 'v1_output.png'), link);
    expect(await judgedImages(path.join(tmp, 'none.xlsx'), link, limits)).toBeUndefined();
  });

  it('stitches the exported charts into one image when the workbook holds more than were exported', () => {
    const charts = [
      { label: 'Data chart 1', title: 'Sales', png: solid(6, 3, 10) },
      { label: 'Data chart 2', title: 'Trend', png: solid(4, 2, 20) },
    ];
    const stitched = withStitchedFallback(charts, 3);
    expect(stitched).toMatchObject({
      source: 'stitched_fallback',
      chartsInWorkbook: 3,
      charts: [{ label: '2 of 3 charts stitched', title: '' }],
    });
    const image = decodePng(stitched.charts[0].png);
    expect([image.width, image.height]).toEqual([6, 5]);
    expect([...image.rgb.subarray(0, 3)]).toEqual([10, 10, 10]); // the first chart, top left
    expect([...image.rgb.subarray((3 * 6 + 1) * 3, (3 * 6 + 2) * 3)]).toEqual([20, 20, 20]); // the second, centred
    expect([...image.rgb.subarray(3 * 6 * 3, 3 * 6 * 3 + 3)]).toEqual([255, 255, 255]); // white beside it
    // One image: the titled item is no longer routed to a chart of its own.
    expect(
      chartGroups(
        [
          { id: 1, assertion: 'a', chart: 'Sales' },
          { id: 2, assertion: 'b' },
        ],
        [''],
      ),
    ).toEqual([{ charts: [0], items: [1, 2] }]);
    // Every chart exported (or the count unknown: -1): the charts as they are, routed as before.
    expect(withStitchedFallback(charts, 2)).toEqual({ source: 'xlsx_export', charts, chartsInWorkbook: 2 });
    expect(withStitchedFallback(charts, -1)).toEqual({ source: 'xlsx_export', charts, chartsInWorkbook: -1 });
  });

  it('keeps the charts separate when they cannot be stitched, as the release does when stitching fails', () => {
    const unreadable = Buffer.concat([solid(1, 1, 0).subarray(0, 8), Buffer.from('garbage')]);
    const charts = [
      { label: 'Data chart 1', title: 'Sales', png: solid(2, 2, 0) },
      { label: 'Data chart 2', title: 'Trend', png: unreadable },
    ];
    expect(withStitchedFallback(charts, 3)).toEqual({ source: 'xlsx_export', charts, chartsInWorkbook: 3 });
  });
});
