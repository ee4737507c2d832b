import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root folder, found from this file (never from the working directory): `.tools/`, `.state/`, package.json. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `shared/data/<name>` in the nearest folder above the checkout that has it: the benchmark data laid beside a clone
 * (`../shared`), wherever the clone lives. Returns the nearest candidate even when absent, for the caller to report.
 */
export function sharedDataPath(name: string): string {
  for (let dir = path.dirname(REPO_ROOT); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared/data', name);
    if (existsSync(candidate) || dir === path.dirname(dir)) return candidate;
  }
}
