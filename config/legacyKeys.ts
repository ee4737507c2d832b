/**
 * Keys older versions of the config used, and where each now lives. A config file (or override) naming an old key is
 * read as if it named the new one, with a one-line deprecation warning; naming both with different values fails,
 * naming both keys. Paths are dot-separated from the root; a `*` segment in `to` is a literal key.
 */
export interface LegacyKey {
  from: string;
  to: string;
  /** `merge`: the old value is an object whose entries join the new one's (the new one's win). */
  how?: 'merge';
}

export const LEGACY_KEYS: readonly LegacyKey[] = [
  // One name per meaning: model steps an agent may take (each a reply whose code or tools are run).
  { from: 'run.maxTurns', to: 'spreadsheetbench.maxSteps' },
  { from: 'dsbench.agentMaxRounds', to: 'dsbench.maxSteps' },
  { from: 'conversation.maxStepsPerTurn', to: 'conversation.maxSteps' },
  // SpreadsheetBench-only settings out of the generic `run` section.
  { from: 'run.maxRevisions', to: 'spreadsheetbench.maxRevisions' },
  { from: 'run.previewRows', to: 'spreadsheetbench.previewRows' },
  { from: 'run.scoringMode', to: 'spreadsheetbench.scoringMode' },
  // Context windows are a model capability (lib/llm/contextWindows.ts), not a DSBench setting.
  { from: 'dsbench.contextLimits', to: 'llm.contextWindows', how: 'merge' },
  { from: 'dsbench.defaultContextLimit', to: 'llm.contextWindows.*' },
];

export class LegacyKeyConflict extends Error {
  override name = 'LegacyKeyConflict';
}

type Tree = Record<string, unknown>;

/**
 * A copy of `raw` with every old key moved to its new place. `warn` gets one line per old key found. Throws
 * LegacyKeyConflict when an old key and its new key are both set to different values.
 */
export function migrateLegacyKeys(raw: Tree, warn: (line: string) => void): Tree {
  const out = structuredClone(raw);
  for (const key of LEGACY_KEYS) {
    const from = key.from.split('.');
    const old = readPath(out, from);
    if (old === undefined) continue;
    const to = key.to.split('.');
    const current = readPath(out, to);
    const value = key.how === 'merge' && isTree(old) && isTree(current) ? { ...old, ...current } : old;
    if (key.how !== 'merge' && current !== undefined && JSON.stringify(current) !== JSON.stringify(old))
      throw new LegacyKeyConflict(
        `config key ${key.from} was renamed ${key.to}, and both are set ` +
          `(${JSON.stringify(old)} and ${JSON.stringify(current)}): keep only ${key.to}`,
      );
    deletePath(out, from);
    writePath(out, to, value);
    warn(`config: ${key.from} is deprecated, read as ${key.to} (rename it)`);
  }
  return out;
}

function isTree(v: unknown): v is Tree {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readPath(tree: Tree, path: string[]): unknown {
  let node: unknown = tree;
  for (const segment of path) {
    if (!isTree(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

function deletePath(tree: Tree, path: string[]): void {
  const parent = readPath(tree, path.slice(0, -1));
  if (isTree(parent)) delete parent[path[path.length - 1]];
}

function writePath(tree: Tree, path: string[], value: unknown): void {
  let node = tree;
  for (const segment of path.slice(0, -1)) {
    node[segment] ??= {};
    const next = node[segment];
    if (!isTree(next)) return; // not an object: the schema names that key as invalid
    node = next;
  }
  node[path[path.length - 1]] = value;
}
