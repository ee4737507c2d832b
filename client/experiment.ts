import type { RunManifest } from '../lib/runStore/manifest';
import { benchmarkNamed } from '../benchmarks';

/** What a resume would run with, where it can differ from what the run was started with. */
export interface ExperimentNow {
  model?: string;
  scoringMode?: string;
  agent?: string;
}

/**
 * The differences between a recorded run and what a resume would continue with: the dataset as it is now on disk,
 * the prompt version of the code now, and any model/agent/scorer the caller asks for. Empty: same experiment.
 */
export async function experimentDifferences(manifest: RunManifest, now: ExperimentNow): Promise<string[]> {
  const differs: string[] = [];
  const benchmark = benchmarkNamed(manifest.benchmark);
  const dataset = await benchmark.datasetVersion(manifest.datasetDir).catch(() => 'missing');
  if (dataset !== manifest.datasetVersion)
    differs.push(`dataset ${manifest.datasetDir}: ${manifest.datasetVersion} → ${dataset}`);
  const prompts = benchmark.promptVersion(manifest.agent);
  if (prompts !== manifest.agentSettings.promptVersion)
    differs.push(`prompt version ${manifest.agentSettings.promptVersion} → ${prompts}`);
  if (now.model && now.model !== manifest.llm.model) differs.push(`model ${manifest.llm.model} → ${now.model}`);
  if (now.scoringMode && now.scoringMode !== manifest.scoringMode)
    differs.push(`scoring mode ${manifest.scoringMode} → ${now.scoringMode}`);
  if (now.agent && now.agent !== manifest.agent) differs.push(`agent ${manifest.agent} → ${now.agent}`);
  return differs;
}
