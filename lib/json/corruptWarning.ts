import type { CorruptFileError } from './fileErrors';

const reported = new Set<string>();

/**
 * Reports a corrupt file that a reader could step over (a listing that goes on without it, a cache entry fetched
 * again) on stderr, once per file and problem in this process: a page polled every second does not repeat it.
 */
export function warnCorruptFile(err: CorruptFileError, consequence: string): void {
  const message = `sheetbench: corrupt file ${err.message} — ${consequence}`;
  if (reported.has(message)) return;
  reported.add(message);
  console.warn(message);
}
