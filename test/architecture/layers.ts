/**
 * The dependency rule, in one place: imports point down this list of layers, never up.
 *
 *   faces (cli, bin, server, web, bench) → client → workers → workflows ⇢ activities (types only) → benchmarks → analysis
 *   → contracts → lib → config
 *
 * Inside a layer, a concept's folder (workflows/dsbench/, activities/analysis/, …) uses its own files and the layer's
 * shared homes; the shared homes (workflows/run/, activities/llm/, benchmarks/report/, …) know no concept, and a
 * layer's registry (its index.ts) is the one file that names them all. The browser app (web/) imports only itself, and
 * the server's types (type-only: its replies are checked against them); nothing of the server imports it; nothing but
 * the tests and the benchmark scripts imports the tests.
 *
 * Benchmarks stay behind their interface (benchmarks/benchmark.ts): a benchmark's folders in any layer
 * (workflows/dsbench/, activities/dsbench/, benchmarks/dsbench/) import no other benchmark's; the server, the workers,
 * the client code and every layer's shared homes reach a benchmark only through the registry (benchmarks/index.ts);
 * and nothing outside benchmarks/ branches on a benchmark's name (`benchmarkNameBranches`): it asks the benchmark.
 */
import type { Import, ImportGraph } from './importGraph';
import { cycles, loopThrough } from './importGraph';

export interface Layer {
  name: string;
  /** Top-level folders, with the trailing `/`. */
  folders: string[];
  /** Concept folders inside the layer (each may import only itself and the shared homes), and the shared homes. */
  concepts?: string[];
  shared?: string[];
}

export const LAYERS: readonly Layer[] = [
  { name: 'faces', folders: ['cli/', 'bin/', 'server/', 'web/', 'bench/'] },
  { name: 'client', folders: ['client/'] },
  { name: 'workers', folders: ['workers/'] },
  {
    name: 'workflows',
    folders: ['workflows/'],
    concepts: [
      'workflows/spreadsheetbench/',
      'workflows/spreadsheetbench2/',
      'workflows/dsbench/',
      'workflows/analysis/',
      'workflows/rateLimit/',
      'workflows/batch/',
    ],
    shared: ['workflows/run/', 'workflows/versions.ts'],
  },
  {
    name: 'activities',
    folders: ['activities/'],
    concepts: [
      'activities/spreadsheetbench/',
      'activities/spreadsheetbench2/',
      'activities/dsbench/',
      'activities/analysis/',
      'activities/recalc/',
    ],
    shared: [
      'activities/run/',
      'activities/llm/',
      'activities/deps.ts',
      'activities/heartbeat.ts',
      'activities/artifactPaths.ts',
      'activities/workDirs.ts',
      'activities/sessionRegistry.ts',
    ],
  },
  {
    name: 'benchmarks',
    folders: ['benchmarks/'],
    concepts: [
      'benchmarks/spreadsheetbench/',
      'benchmarks/spreadsheetbench2/',
      'benchmarks/dsbench/',
      'benchmarks/analysis/',
    ],
    shared: [
      'benchmarks/report/',
      'benchmarks/codeAgent/',
      'benchmarks/workbook/',
      'benchmarks/benchmark.ts',
      'benchmarks/archive.ts',
      'benchmarks/datasetVersion.ts',
      'benchmarks/datasetFile.ts',
    ],
  },
  { name: 'analysis', folders: ['analysis/'] },
  { name: 'contracts', folders: ['contracts/'] },
  { name: 'lib', folders: ['lib/'] },
  { name: 'config', folders: ['config/'] },
];

/**
 * Code that serves every benchmark alike: it reaches a benchmark through the registry (benchmarks/index.ts) and the
 * interface, never a benchmark's folder. (A CLI command or a bench/ script may be one benchmark's own: `eval`, `rerun`.)
 */
export const BENCHMARK_BLIND = ['server/', 'workers/', 'client/'];

/**
 * Not part of the product: tests import anything; the benchmark scripts may use the tests' helpers, and the tests'
 * vitest config its sequencer (test/slowestFirstSequencer.ts).
 */
const TESTS = 'test/';
const MAY_IMPORT_TESTS = ['test/', 'bench/', 'vitest.config.ts'];
/** Files at the repository root that are configuration of tools (vitest, ESLint), not source of the product. */
const ROOT_TOOL_FILES = new Set(['vitest.config.ts', 'eslint.config.js']);

export interface RuleBreak {
  import: Import;
  rule: string;
}

export function layerOf(file: string, layers: readonly Layer[] = LAYERS): { layer: Layer; rank: number } | undefined {
  const rank = layers.findIndex((l) => l.folders.some((f) => file.startsWith(f)));
  return rank < 0 ? undefined : { layer: layers[rank], rank };
}

/** Every import that breaks the rule, with the rule it breaks (`layers`: another list, e.g. to measure an older tree). */
export function ruleBreaks(graph: Pick<ImportGraph, 'imports'>, layers: readonly Layer[] = LAYERS): RuleBreak[] {
  const found: RuleBreak[] = [];
  for (const i of graph.imports) {
    const rule = brokenRule(i, layers);
    if (rule) found.push({ import: i, rule });
  }
  return found;
}

function brokenRule(i: Import, layers: readonly Layer[]): string | undefined {
  if (i.from.startsWith(TESTS)) return undefined;
  if (i.to.startsWith(TESTS))
    return MAY_IMPORT_TESTS.some((f) => i.from.startsWith(f))
      ? undefined
      : 'nothing but the tests, their vitest config and bench/ imports the tests (test/)';
  if (i.to.startsWith('web/') && !i.from.startsWith('web/'))
    return 'the server side imports nothing of the browser app (web/)';
  if (i.from.startsWith('web/') && !i.to.startsWith('web/') && !i.typeOnly)
    return 'the browser app (web/) sees the server side only as types (JSDoc `@import`): no server code reaches the browser';
  const from = layerOf(i.from, layers);
  const to = layerOf(i.to, layers);
  if (!from || !to) return undefined; // reported by unplacedFiles
  if (to.rank < from.rank)
    return `imports point down: ${from.layer.name} (${i.from.split('/')[0]}/) may not import ${to.layer.name} (${i.to.split('/')[0]}/)`;
  if (from.layer.name === 'workflows' && to.layer.name === 'activities' && !i.typeOnly)
    return 'workflows see activities only as types (`import type`): activity code never enters the workflow bundle';
  if (from.rank === to.rank) return conceptRule(from.layer, i);
  return benchmarkRule(i, layers);
}

/** The benchmark whose folder (in any layer) holds file: `activities/dsbench/x.ts` → dsbench. */
function benchmarkOf(file: string, layers: readonly Layer[]): string | undefined {
  const names = benchmarkNames(layers);
  for (const layer of layers)
    for (const c of layer.concepts ?? [])
      if (file.startsWith(c) && names.includes(conceptName(c))) return conceptName(c);
  return undefined;
}

/** Named exceptions to "one benchmark never imports another", each with its reason. */
const ALLOWED_ACROSS: readonly { from: string; to: string }[] = [
  // Our own agent, checked_vote, runs SpreadsheetBench 2 tasks unchanged (issue 30 §5): v2's adapter sees a v2 task as
  // a one-test-case SpreadsheetBench task (its task record, run folder and output names) and its workflow runs the
  // agent with SpreadsheetBench's task steps. Only the adapter's folders cross; the agent itself is not copied.
  { from: 'benchmarks/spreadsheetbench2/checkedVote/', to: 'benchmarks/spreadsheetbench/' },
  { from: 'workflows/spreadsheetbench2/checkedVote/', to: 'workflows/spreadsheetbench/' },
];

const allowedAcross = (i: Import) => ALLOWED_ACROSS.some((a) => i.from.startsWith(a.from) && i.to.startsWith(a.to));

const conceptName = (folder: string) => folder.replace(/\/$/, '').split('/').pop()!;

/** Across layers: one benchmark's folders never import another's; blind code and shared homes reach none but by the registry. */
function benchmarkRule(i: Import, layers: readonly Layer[]): string | undefined {
  if (allowedAcross(i)) return undefined;
  const target = i.to.startsWith('benchmarks/') ? benchmarkOf(i.to, layers) : undefined;
  if (!target) return undefined;
  const source = benchmarkOf(i.from, layers);
  if (source && source !== target)
    return `a benchmark's folders do not import another benchmark's: ${i.from.split('/').slice(0, 2).join('/')}/ (${source}) may not import benchmarks/${target}/ (move what both need to a shared home of benchmarks/)`;
  const blind = BENCHMARK_BLIND.find((f) => i.from.startsWith(f));
  const sharedHome = layers.some((l) => l.shared?.some((s) => i.from === s || i.from.startsWith(s)));
  if (blind || sharedHome)
    return `${blind ?? `a shared home (${i.from})`} serves every benchmark: it reaches benchmarks/${target}/ only through the registry (benchmarks/index.ts) and the Benchmark interface`;
  return undefined;
}

/** The registered benchmarks' names, as their folders in benchmarks/ name them (the test checks them against BENCHMARKS). */
export function benchmarkNames(layers: readonly Layer[] = LAYERS): string[] {
  const benchmarks = layers.find((l) => l.name === 'benchmarks');
  return (benchmarks?.concepts ?? []).map(conceptName);
}

export interface NameBranch {
  file: string;
  line: number;
  text: string;
}

/**
 * Places outside benchmarks/ (and the tests) that decide something by a benchmark's name: a comparison or `case` with
 * a registered name, a benchmark (or its name) compared with any string, a switch over a benchmark, a list of names
 * searched. The decision belongs to the benchmark: add a member to the Benchmark interface and ask it.
 */
export function benchmarkNameBranches(
  files: ReadonlyArray<{ file: string; text: string }>,
  names: readonly string[] = benchmarkNames(),
): NameBranch[] {
  const name = `(?:${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
  const q = `['"\`]`;
  const patterns = [
    new RegExp(`[!=]==?\\s*(${q})${name}\\1`),
    new RegExp(`(${q})${name}\\1\\s*[!=]==?`),
    new RegExp(`\\bcase\\s+(${q})${name}\\1\\s*:`),
    new RegExp(`\\w*benchmark\\w*(?:\\??\\.name)?\\s*[!=]==?\\s*${q}`, 'i'),
    new RegExp(`${q}\\s*[!=]==?\\s*[\\w.?]*benchmark\\w*\\b`, 'i'),
    new RegExp(`\\bswitch\\s*\\([^)]*benchmark`, 'i'),
    new RegExp(`\\[[^\\]]*(${q})${name}\\1[^\\]]*\\]\\s*\\.\\s*(?:includes|indexOf|some|find)\\(`),
  ];
  const found: NameBranch[] = [];
  for (const { file, text } of files) {
    if (file.startsWith('benchmarks/') || file.startsWith(TESTS)) continue;
    text.split('\n').forEach((line, n) => {
      const code = line.trim();
      if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
      if (patterns.some((p) => p.test(line))) found.push({ file, line: n + 1, text: code });
    });
  }
  return found;
}

export function describeNameBranch(b: NameBranch): string {
  return `${b.file}:${b.line} branches on a benchmark's name (ask the Benchmark instead): ${b.text}`;
}

/** Inside a layer: a concept uses itself and the shared homes; a shared home uses no concept; the registry uses all. */
function conceptRule(layer: Layer, i: Import): string | undefined {
  if (!layer.concepts) return undefined;
  const conceptOf = (file: string) => layer.concepts!.find((c) => file.startsWith(c));
  const isShared = (file: string) => layer.shared!.some((s) => file === s || file.startsWith(s));
  const isRegistry = (file: string) => file === `${layer.folders[0]}index.ts`;
  if (isRegistry(i.from) || allowedAcross(i)) return undefined;
  const target = conceptOf(i.to);
  const source = conceptOf(i.from);
  if (isShared(i.from) && target) return `a shared home (${i.from}) knows no concept: it may not import ${target}`;
  if (source && target && source !== target)
    return `concepts do not import each other: ${source} may not import ${target} (move what both need to a shared home)`;
  if (source && !target && !isShared(i.to) && !isRegistry(i.to))
    return `${i.to} is neither a concept nor a shared home of ${layer.name}: list it in test/architecture/layers.ts`;
  return undefined;
}

/** Source files outside every layer (a new top-level folder must take its place in the rule first). */
export function unplacedFiles(graph: Pick<ImportGraph, 'files'>, layers: readonly Layer[] = LAYERS): string[] {
  const inFolder = (f: string) => f.includes('/');
  return graph.files.filter((f) =>
    inFolder(f) ? !f.startsWith(TESTS) && !layerOf(f, layers) : !ROOT_TOOL_FILES.has(f),
  );
}

export interface ImportCycle {
  files: string[];
  /** The imports of one loop through the files. */
  loop: Import[];
}

/**
 * Import cycles: `all` over every import, `value` over value imports alone (what runs). A cycle only type-only imports
 * close is erased at run time, but it still ties its files into one knot, so both count.
 */
export function importCycles(graph: Pick<ImportGraph, 'imports'>): { all: ImportCycle[]; value: ImportCycle[] } {
  const valueImports = graph.imports.filter((i) => !i.typeOnly);
  const value = cycles(valueImports).map((files) => ({ files, loop: loopThrough(files, valueImports) }));
  const all = cycles(graph.imports).map((files) => ({ files, loop: loopThrough(files, graph.imports) }));
  return { all, value };
}

export function describeBreak(b: RuleBreak): string {
  return `${b.import.from}:${b.import.line} imports ${b.import.to} ('${b.import.specifier}'${b.import.typeOnly ? ', type only' : ''}): breaks "${b.rule}"`;
}

export function describeCycle(c: ImportCycle): string {
  const steps = c.loop.map((i) => `${i.from}:${i.line} → ${i.to}${i.typeOnly ? ' (type)' : ''}`);
  return `cycle of ${c.files.length} files: ${steps.join(', ')}`;
}
