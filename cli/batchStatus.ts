import type { RunManifest } from '../lib/runStore/manifest';

/** What `run --batch` will do, in one line. */
export function describeBatchMode(batch: NonNullable<RunManifest['llm']['batch']>): string {
  return (
    `batch mode: model calls collected into batches of up to ${batch.maxRequests} (or what waited ${batch.windowMs / 1000} s), ` +
    `polled every ${batch.pollIntervalMs / 1000} s, charged at ${batch.priceFactor * 100}% of the price; calls a batch ` +
    `does not answer are asked singly at the full price`
  );
}
