import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** `shared/data/<name>` in the nearest ancestor folder that has it (a checkout in /work/main or a worktree in /work/wt/x). */
export function sharedData(name: string): string {
  for (let dir = path.resolve(HERE, '../..'); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared/data', name);
    if (existsSync(candidate) || dir === path.dirname(dir)) return candidate;
  }
}
