import { z } from 'zod';
import type { Config } from '../../config/schema';
import type { RunManifest } from '../../lib/runStore/manifest';

/** What defines an analysis-suite run beyond the model and the pattern: recorded in run.json (`benchmarkSettings`). */
export const analysisSettingsSchema = z.object({
  /** Base URL serving the suite's `files/` for the fetch requests; absent: those requests are skipped, not passed. */
  dataUrl: z.string().url().optional(),
});
export type AnalysisSettings = z.infer<typeof analysisSettingsSchema>;

export function analysisSettingsFrom(config: Config): AnalysisSettings {
  return config.analysisSuite.dataUrl ? { dataUrl: config.analysisSuite.dataUrl.replace(/\/+$/, '') } : {};
}

export function analysisSettingsOf(manifest: RunManifest): AnalysisSettings {
  const parsed = analysisSettingsSchema.safeParse(manifest.benchmarkSettings ?? {});
  if (!parsed.success)
    throw new Error(`run ${manifest.runId} has no valid analysis settings in run.json: ${parsed.error.message}`);
  return parsed.data;
}
