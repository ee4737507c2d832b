import { appendFile, copyFile, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { INTERNAL_DIR } from '../workspace/paths';
import { ConversationError } from './errors';
import { readEvents } from './eventLog';
import type { ConversationLayout } from './layout';
import { filesNamed, scopedEvents } from './shareScope';

export interface ForkScope {
  /** One turn only (a share of that turn); else the whole conversation. */
  turnId?: string;
  /** Copy the debug records of the copied turns too. */
  debug: boolean;
  /** Bytes the copy may take (the workspace limit). */
  maxBytes: number;
}

/**
 * Copies what a viewer may see of a conversation into a new one's folder: the uploads, the workspace files (a turn's
 * share: the files that turn named), the event log of the copied turns (numbered afresh; the fork's kernel restores
 * from their cells) and, when allowed, their debug records. Only regular files are copied: a link the sandboxed code
 * planted is never followed. Returns the highest turn number copied (the fork's next turn comes after it).
 */
export async function copyForFork(from: ConversationLayout, to: ConversationLayout, scope: ForkScope): Promise<number> {
  const events = scopedEvents(await readEvents(from), scope.turnId);
  const budget = { left: scope.maxBytes, max: scope.maxBytes };
  await copyTree(from.inputs, to.inputs, () => true, budget);
  const named = filesNamed(events);
  const marker = `${INTERNAL_DIR}/python-session`;
  await copyTree(
    from.workspace,
    to.workspace,
    (rel) => rel === marker || (!rel.startsWith(`${INTERNAL_DIR}/`) && (!scope.turnId || named.has(rel))),
    budget,
  );
  await mkdir(path.dirname(to.events), { recursive: true });
  if (events.length)
    await appendFile(to.events, events.map((e, i) => `${JSON.stringify({ ...e, seq: i + 1 })}\n`).join(''));
  const turns = new Set(events.flatMap((e) => (e.turnId ? [e.turnId] : [])));
  // Debug records are named after their step (`t3-s0.json`, `t3-s0.tools/…`, `t3-grounding.json`): the turn comes first.
  if (scope.debug) await copyTree(from.debug, to.debug, (rel) => turns.has(rel.split('-')[0]), budget);
  return Math.max(0, ...[...turns].map((t) => Number(t.slice(1)) || 0));
}

const scopeBytes = (budget: { left: number; max?: number }) =>
  `${Math.round((budget.max ?? budget.left) / 1048576)} MiB`;

/** Copies the regular files under `from` that `keep` accepts (by path relative to `from`), within the byte budget. */
async function copyTree(
  from: string,
  to: string,
  keep: (rel: string) => boolean,
  budget: { left: number; max?: number },
  rel = '',
): Promise<void> {
  const entries = await readdir(path.join(from, rel), { withFileTypes: true }).catch(() => []); // nothing there to copy
  for (const entry of entries) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    const source = path.join(from, child);
    const info = await lstat(source);
    if (info.isDirectory()) await copyTree(from, to, keep, budget, child);
    if (!info.isFile() || !keep(child)) continue;
    if (info.size > budget.left)
      throw new ConversationError(
        'too_large',
        `the fork would copy more than the workspace limit of ${scopeBytes(budget)} allows (at ${child})`,
      );
    budget.left -= info.size;
    await mkdir(path.dirname(path.join(to, child)), { recursive: true });
    await copyFile(source, path.join(to, child));
  }
}
