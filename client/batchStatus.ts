import { readdir } from 'node:fs/promises';
import { BatchLayout, batchStatusSchema, type BatchStatusFile } from '../lib/llm/batch/batchFiles';
import { readJsonFile } from '../lib/json';

/** A `run --batch` run's batches as their last polls saw them (`<run>/batches/<name>/status.json`), oldest first. */
export async function readBatchStatuses(runDir: string): Promise<BatchStatusFile[]> {
  const layout = BatchLayout.ofRun(runDir);
  const names = await readdir(layout.root).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[]; // no batch yet
    throw err;
  });
  const statuses: BatchStatusFile[] = [];
  for (const name of names.filter((n) => /^b\d+$/.test(n)).sort()) {
    const read = await readJsonFile(layout.statusPath(name), batchStatusSchema);
    if (read.kind === 'ok') statuses.push(read.value);
  }
  return statuses;
}

/** One line per batch: `batch b0001 batch_abc… completed 20/20 answered, 0 failed`. */
export function formatBatchStatuses(statuses: readonly BatchStatusFile[]): string[] {
  return statuses.map(
    (s) =>
      `batch ${s.name} ${s.batchId}: ${s.status}, ${s.completed}/${s.calls} answered, ${s.failed} failed` +
      (s.errors.length ? ` (${s.errors.join('; ')})` : ''),
  );
}
