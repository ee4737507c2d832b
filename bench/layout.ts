/**
 * Prints the figures of the repository's structure, measured from its imports (test/architecture/importGraph.ts):
 * top-level folders, source lines, folder-to-folder arrows, import cycles (type-only ones apart), imports that break
 * the dependency rule, places outside benchmarks/ that branch on a benchmark's name, and the largest files.
 *
 *   node --import tsx bench/layout.ts [--repo DIR] [--layers LAYERS.json] [--json]
 *
 * `--layers` replaces the rule's layers with `[{ "name": …, "folders": ["dir/", …] }, …]` (top first), e.g. to measure
 * an older checkout whose folders the current rule does not name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readImportGraph } from '../test/architecture/importGraph';
import {
  benchmarkNameBranches,
  describeNameBranch,
  importCycles,
  LAYERS,
  ruleBreaks,
  type Layer,
} from '../test/architecture/layers';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const root = path.resolve(option('--repo') ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const layers: readonly Layer[] = option('--layers')
  ? (JSON.parse(readFileSync(option('--layers')!, 'utf8')) as Layer[])
  : LAYERS;

const graph = readImportGraph(root);
const product = graph.files.filter((f) => !f.startsWith('test/'));
const top = (f: string) => (f.includes('/') ? f.split('/')[0] : '(root)');
const lines = (f: string) => readFileSync(path.join(root, f), 'utf8').split('\n').length;
const rank = (f: string) => layers.findIndex((l) => l.folders.some((d) => f.startsWith(d)));

const folders = readdirSync(root, { withFileTypes: true }).filter(
  (e) => e.isDirectory() && !['node_modules', '.git', '.tools', '.state', 'runs'].includes(e.name),
);
const productImports = graph.imports.filter((i) => !i.from.startsWith('test/') && !i.to.startsWith('test/'));
const arrows = new Set(
  productImports.filter((i) => top(i.from) !== top(i.to)).map((i) => `${top(i.from)} -> ${top(i.to)}`),
);
const upward = new Set(
  productImports
    .filter((i) => rank(i.from) >= 0 && rank(i.to) >= 0 && rank(i.to) < rank(i.from))
    .map((i) => `${top(i.from)} -> ${top(i.to)}`),
);
const { all, value } = importCycles({ imports: productImports });
const breaks = ruleBreaks(graph, layers);
const nameBranches = benchmarkNameBranches(
  graph.files.map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') })),
);
const largest = product
  .map((f) => ({ file: f, lines: lines(f) }))
  .sort((a, b) => b.lines - a.lines)
  .slice(0, 10);

const figures = {
  repo: root,
  topLevelFolders: folders.length,
  topLevelFoldersWithSource: new Set(product.map(top).filter((t) => t !== '(root)')).size,
  sourceFiles: product.length,
  sourceLines: product.reduce((s, f) => s + lines(f), 0),
  folderArrows: arrows.size,
  upwardFolderArrows: [...upward].sort(),
  cycles: all.map((c) => c.files.length),
  valueCycles: value.map((c) => c.files.length),
  ruleBreaks: breaks.length,
  benchmarkNameBranches: nameBranches.map(describeNameBranch),
  largest,
};

if (args.includes('--json')) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
else {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  out(`repo ${figures.repo}`);
  out(`top-level folders ${figures.topLevelFolders} (${figures.topLevelFoldersWithSource} hold source outside test/)`);
  out(`source ${figures.sourceFiles} files, ${figures.sourceLines} lines (tests not counted)`);
  out(
    `folder-to-folder arrows ${figures.folderArrows}; pointing up ${upward.size}${upward.size ? `: ${figures.upwardFolderArrows.join(', ')}` : ''}`,
  );
  out(
    `import cycles: ${all.length}${all.length ? ` (${figures.cycles.join(', ')} files)` : ''}; on value imports alone: ${value.length}${value.length ? ` (${figures.valueCycles.join(', ')} files)` : ''}`,
  );
  out(
    `imports that break the rule: ${breaks.length}${layers === LAYERS ? '' : ' (layers from --layers: the concept rules of the current layers do not apply)'}`,
  );
  out(`branches on a benchmark's name outside benchmarks/: ${nameBranches.length}`);
  for (const b of nameBranches) out(`  ${describeNameBranch(b)}`);
  out('largest files:');
  for (const l of largest) out(`  ${String(l.lines).padStart(5)}  ${l.file}`);
}
