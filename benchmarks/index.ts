import { stat } from 'node:fs/promises';
import { BenchmarkError, type Benchmark, type DatasetContents } from './benchmark';
import { spreadsheetBench } from './spreadsheetbench';
import { spreadsheetBench2 } from './spreadsheetbench2';
import { dsBench } from './dsbench';
import { analysisBenchmark } from './analysis';

export type { Benchmark, DatasetContents, WrittenReport } from './benchmark';
export { BenchmarkError } from './benchmark';

/**
 * Every benchmark the tool runs, in detection order. A new benchmark adds its folder and one line here. SpreadsheetBench 2
 * comes first: its category folders also hold dataset.json + spreadsheet/, told apart by `golden_response_path`.
 */
export const BENCHMARKS: readonly Benchmark[] = [spreadsheetBench2, spreadsheetBench, dsBench, analysisBenchmark];

export function benchmarkNamed(name: string): Benchmark {
  const found = BENCHMARKS.find((b) => b.name === name);
  if (!found)
    throw new BenchmarkError(`unknown benchmark ${name} (known: ${BENCHMARKS.map((b) => b.name).join(', ')})`);
  return found;
}

/** A dataset folder read once: which benchmark and edition it holds, and its contents. */
export interface Detected {
  benchmark: Benchmark;
  edition: string;
  /** How it was decided, for the CLI to say. */
  how: 'detected' | 'given';
  dataset: DatasetContents;
}

/** The benchmark, edition and contents of a dataset folder; `--benchmark` / `--edition` override what the folder suggests. */
export async function detectBenchmark(
  datasetDir: string,
  override: { benchmark?: string; edition?: string } = {},
): Promise<Detected> {
  if (
    !(await stat(datasetDir).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    throw new BenchmarkError(`dataset folder ${datasetDir} does not exist (or is not a folder)`);
  const candidates = override.benchmark ? [benchmarkNamed(override.benchmark)] : BENCHMARKS;
  for (const benchmark of candidates) {
    const dataset = await benchmark.read(datasetDir);
    if (!dataset) continue;
    const given = override.benchmark !== undefined || override.edition !== undefined;
    return {
      benchmark,
      edition: checkEdition(benchmark, override.edition ?? dataset.edition),
      how: given ? 'given' : 'detected',
      dataset,
    };
  }
  throw new BenchmarkError(
    override.benchmark
      ? `${datasetDir} holds no ${candidates[0].title} dataset (${override.benchmark} was named with --benchmark)`
      : `${datasetDir} is not a known benchmark dataset (looked for: ${BENCHMARKS.map((b) => b.name).join(', ')}); name one with --benchmark`,
  );
}

function checkEdition(benchmark: Benchmark, edition: string): string {
  if (!benchmark.editions.includes(edition)) {
    throw new BenchmarkError(`unknown ${benchmark.name} edition ${edition} (known: ${benchmark.editions.join(', ')})`);
  }
  return edition;
}
