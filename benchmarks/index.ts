import { stat } from 'node:fs/promises';
import { BenchmarkError, type Benchmark } from './benchmark';
import { spreadsheetBench } from './spreadsheetbench';
import { dsBench } from './dsbench';
import { analysisBenchmark } from './analysis';

export type { Benchmark, TaskRecord, LoadedTasks, SelectOptions } from './benchmark';
export { BenchmarkError } from './benchmark';

/** Every benchmark the tool runs, in detection order. A new benchmark adds its folder and one line here. */
export const BENCHMARKS: readonly Benchmark[] = [spreadsheetBench as Benchmark, dsBench as Benchmark, analysisBenchmark as Benchmark];

export function benchmarkNamed(name: string): Benchmark {
  const found = BENCHMARKS.find((b) => b.name === name);
  if (!found) throw new BenchmarkError(`unknown benchmark ${name} (known: ${BENCHMARKS.map((b) => b.name).join(', ')})`);
  return found;
}

export interface Detected {
  benchmark: Benchmark;
  edition: string;
  /** How it was decided, for the CLI to say. */
  how: 'detected' | 'given';
}

/** The benchmark and edition of a dataset folder; `--benchmark` / `--edition` override what the folder suggests. */
export async function detectBenchmark(datasetDir: string, override: { benchmark?: string; edition?: string } = {}): Promise<Detected> {
  if (!(await stat(datasetDir).then((s) => s.isDirectory(), () => false))) throw new BenchmarkError(`dataset folder ${datasetDir} does not exist (or is not a folder)`);
  if (override.benchmark) {
    const benchmark = benchmarkNamed(override.benchmark);
    const edition = override.edition ?? (await benchmark.detect(datasetDir)) ?? benchmark.editions[0];
    return { benchmark, edition: checkEdition(benchmark, edition), how: 'given' };
  }
  for (const benchmark of BENCHMARKS) {
    const edition = await benchmark.detect(datasetDir);
    if (edition) return { benchmark, edition: checkEdition(benchmark, override.edition ?? edition), how: override.edition ? 'given' : 'detected' };
  }
  throw new BenchmarkError(
    `${datasetDir} is not a known benchmark dataset (looked for: ${BENCHMARKS.map((b) => b.name).join(', ')}); name one with --benchmark`,
  );
}

function checkEdition(benchmark: Benchmark, edition: string): string {
  if (!benchmark.editions.includes(edition)) {
    throw new BenchmarkError(`unknown ${benchmark.name} edition ${edition} (known: ${benchmark.editions.join(', ')})`);
  }
  return edition;
}
