/**
 * The charts a judgment will send (judgedImages.ts: the agent's `<id>_output.png`, else the workbook's charts, stitched
 * when some did not export), taken once from the task's (recalculated) output into `tasks/<key>/charts/`
 * (`charts.json` and one PNG per chart) before the model is asked: the judge's call reads them from there, so a retried
 * call sends the very same bytes (its response-cache key covers them) and nothing large travels in Temporal payloads.
 * What leaves no chart to judge (no output, no checklist, an unreadable workbook, no chart, an oversized image) is a
 * final judgment instead, whose message names the task and the cause.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readRequiredJson } from '../../../lib/json';
import { writeJsonAtomic } from '../../../lib/runStore/files';
import { ChartExportError, type ChartImage } from '../../../lib/recalc/chartImages';
import type { V2Task } from '../dataset';
import type { ChartJudgment } from './chartJudgment';
import { checklistOf } from './checklistJudge';
import { chartGroups } from './chartGroups';
import { IMAGE_SOURCES, JudgedImageProblem, judgedImages, type JudgedImages } from './judgedImages';

export const chartsDir = (runDir: string, key: string) => path.join(runDir, 'tasks', key, 'charts');

const storedChartsSchema = z.object({
  charts: z.array(
    z.object({
      label: z.string(),
      title: z.string().default(''),
      file: z.string(),
      sha256: z.string(),
      bytes: z.number(),
    }),
  ),
  chartsLeftOut: z.number(),
  /** What the images are (judgedImages.ts); absent when stored before: exported from the workbook. */
  source: z.enum(IMAGE_SOURCES).optional(),
  /** The charts the workbook holds, when the images were exported from it. */
  chartsInWorkbook: z.number().optional(),
  /** The judge calls' groups (chartGroups.ts); absent (stored before groups): one group of every chart and item. */
  groups: z
    .array(z.object({ charts: z.array(z.number()), items: z.array(z.union([z.number(), z.string()])) }))
    .optional(),
});
export type StoredCharts = z.infer<typeof storedChartsSchema>;

export interface ChartLimits {
  maxCharts: number;
  maxImageBytes: number;
  exportTimeoutMs: number;
}

export type Prepared = { ready: true; stored: StoredCharts } | { ready: false; judgment: ChartJudgment };

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function exported(
  task: V2Task,
  key: string,
  output: { workbook: string; image: string },
  limits: ChartLimits,
): Promise<JudgedImages | ChartJudgment> {
  const final = (verdict: ChartJudgment['verdict'], message: string): ChartJudgment => ({
    taskId: key,
    verdict,
    accuracy: 0,
    message: `task ${String(task.id)}: ${message}`,
  });
  if (!task.criteria?.length) return final('no_checklist', 'its record has no checklist (`criteria`) to judge on');
  let judged: JudgedImages | undefined;
  try {
    judged = await judgedImages(output.workbook, output.image, limits);
  } catch (err) {
    if (err instanceof JudgedImageProblem) return final('export_failed', err.message);
    if (!(err instanceof ChartExportError)) throw err;
    return final('export_failed', `its output's charts could not be exported: ${err.message}`);
  }
  if (!judged) return final('no_output', `no output workbook ${path.basename(output.workbook)} to take charts from`);
  if (!judged.charts.length) return final('no_charts', `its output ${path.basename(output.workbook)} holds no chart`);
  const large = judged.charts.find((c) => c.png.length > limits.maxImageBytes);
  if (large)
    return final(
      'export_failed',
      `chart "${large.label}" is ${large.png.length} bytes as a PNG, over visionJudge.maxImageBytes (${limits.maxImageBytes})`,
    );
  return judged;
}

/** Exports the output's charts and stores them for the judge, or the final judgment when there is nothing to judge. */
export async function prepareCharts(
  runDir: string,
  task: V2Task,
  key: string,
  output: { workbook: string; image: string },
  limits: ChartLimits,
): Promise<Prepared> {
  const dir = chartsDir(runDir, key);
  await rm(dir, { recursive: true, force: true });
  const judged = await exported(task, key, output, limits);
  if ('verdict' in judged) return { ready: false, judgment: judged };
  await mkdir(dir, { recursive: true });
  const sent = judged.charts.slice(0, limits.maxCharts);
  const stored: StoredCharts = {
    charts: [],
    chartsLeftOut: judged.charts.length - sent.length,
    source: judged.source,
    ...(judged.chartsInWorkbook === undefined ? {} : { chartsInWorkbook: judged.chartsInWorkbook }),
    groups: chartGroups(
      checklistOf(task),
      sent.map((c) => c.title),
    ),
  };
  for (const [i, c] of sent.entries()) {
    const file = `chart-${i + 1}.png`;
    await writeFile(path.join(dir, file), c.png);
    stored.charts.push({ label: c.label, title: c.title, file, sha256: sha256(c.png), bytes: c.png.length });
  }
  await writeJsonAtomic(path.join(dir, 'charts.json'), stored);
  return { ready: true, stored };
}

/** The stored charts with their bytes, each checked against the digest it was stored with. */
export async function readPreparedCharts(
  runDir: string,
  key: string,
): Promise<{ stored: StoredCharts; images: ChartImage[] }> {
  const dir = chartsDir(runDir, key);
  const stored = await readRequiredJson(path.join(dir, 'charts.json'), storedChartsSchema);
  const images = await Promise.all(
    stored.charts.map(async (c) => {
      const png = await readFile(path.join(dir, path.basename(c.file)));
      if (sha256(png) !== c.sha256)
        throw new Error(`task ${key}: stored chart ${c.file} changed since it was exported`);
      return { label: c.label, title: c.title, png };
    }),
  );
  return { stored, images };
}
