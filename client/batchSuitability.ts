import type { Config } from '../config/schema';
import { BENCHMARKS } from '../benchmarks';
import { usesLocalModel } from '../lib/llm';
import type { RunPlan } from './createRun';

/**
 * Why `run --batch` refuses this run, or undefined when it suits: a batch answers in minutes to 24 hours, so a setting
 * whose calls wait on one another (rounds with execution feedback, multi-stage agents) would take that many round
 * trips; and only an OpenAI-compatible endpoint has a batch API.
 */
export function batchRefusal(config: Config, plan: RunPlan): string | undefined {
  if (usesLocalModel(config.llm))
    return '--batch needs an OpenAI-compatible endpoint with the files + batches API (--base-url); the embedded model has none';
  const suited = plan.benchmark.batchSettings ?? [];
  if (suited.includes(plan.agent)) return undefined;
  return (
    `--batch: ${plan.benchmark.title} setting ${plan.agent} makes model calls that wait on one another (rounds, stages), ` +
    `so it would take many batch round trips of up to 24 h each; --batch suits ${suitedSettings()}`
  );
}

function suitedSettings(): string {
  return BENCHMARKS.filter((b) => b.batchSettings?.length)
    .map((b) => `${b.batchSettings!.join(', ')} (${b.title})`)
    .join('; ');
}
