import { mkdirSync, mkdtempSync, readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readImportGraph } from './importGraph';
import {
  benchmarkNameBranches,
  benchmarkNames,
  describeBreak,
  describeCycle,
  describeNameBranch,
  importCycles,
  LAYERS,
  ruleBreaks,
  unplacedFiles,
} from './layers';
import { BENCHMARKS } from '../../benchmarks';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The dependency rule (test/architecture/layers.ts, README "Architecture"), held against the code's own imports. */
describe('the dependency rule', () => {
  const graph = readImportGraph(REPO);
  const product = { imports: graph.imports.filter((i) => !i.from.startsWith('test/')) };

  it('reads the whole tree: every relative import names a file', () => {
    expect(graph.files.length).toBeGreaterThan(300);
    expect(graph.unresolved.map((u) => `${u.from}:${u.line} '${u.specifier}'`)).toEqual([]);
  });

  it('every import points down the layers (workflows see activities as types only; concepts keep to themselves)', () => {
    expect(ruleBreaks(graph).map(describeBreak)).toEqual([]);
  });

  it('no import closes a cycle, counting type-only imports too', () => {
    const { all, value } = importCycles(product);
    expect(value.map(describeCycle)).toEqual([]);
    expect(all.map(describeCycle)).toEqual([]);
  });

  it("nothing outside benchmarks/ branches on a benchmark's name: it asks the Benchmark", () => {
    const sources = graph.files.map((file) => ({ file, text: readFileSync(path.join(REPO, file), 'utf8') }));
    expect(benchmarkNameBranches(sources).map(describeNameBranch)).toEqual([]);
  });

  it('the rule knows every registered benchmark by its folder', () => {
    expect(benchmarkNames().sort()).toEqual(BENCHMARKS.map((b) => b.name).sort());
  });

  it('every source file outside test/ is in a layer', () => {
    expect(unplacedFiles(graph)).toEqual([]);
  });

  it('every folder of source says what lives there (its README, or a row of a README above it), and each layer what it may import', () => {
    const undocumented = sourceFolders().filter((dir) => !described(dir));
    expect(undocumented).toEqual([]);
    const layerFolders = LAYERS.flatMap((l) => l.folders).filter((f) => existsSync(path.join(REPO, f)));
    const silent = layerFolders.filter(
      (f) => !/^May import:/m.test(readFileSync(path.join(REPO, f, 'README.md'), 'utf8')),
    );
    expect(silent).toEqual([]);
  });
});

/** The checker itself, on a small tree with one of each fault: it must name the file, the import and the rule. */
describe('the rule check finds what breaks it', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sb-layers-'));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write(
    'lib/llm/provider.ts',
    "import { benchmarkRun } from '../../workflows/run/benchmarkRun';\nexport const p = benchmarkRun;\n",
  );
  write(
    'workflows/run/benchmarkRun.ts',
    "import { runActivities } from '../../activities/run';\nimport { spreadsheetTask } from '../spreadsheetbench/task';\nexport const benchmarkRun = [runActivities, spreadsheetTask];\n",
  );
  write(
    'workflows/spreadsheetbench/task.ts',
    "import type { Q } from '../dsbench/question';\nexport const spreadsheetTask = 1;\nexport type T = Q;\n",
  );
  write('workflows/dsbench/question.ts', 'export type Q = number;\n');
  write('activities/run/index.ts', 'export const runActivities = {};\n');
  write('contracts/a.ts', "import type { B } from './b';\nexport interface A { b?: B }\n");
  write('contracts/b.ts', "import type { A } from './a';\nexport interface B { a?: A }\n");
  write('web/main.js', "import { x } from '../lib/llm/provider';\nexport const y = x;\n");
  write(
    'web/view.js',
    "/** @import { P } from '../lib/llm/types' */\n/** @type {import('../lib/llm/types').P} */\nexport const v = 1;\n",
  );
  write('lib/llm/types.ts', "import { y } from '../../web/main';\nexport type P = number;\nexport const z = y;\n");
  write('scratch/tool.ts', 'export const t = 1;\n');
  // Benchmarks behind their interface: a name branch, a look inside a benchmark, one benchmark using another's parts.
  write('benchmarks/spreadsheetbench/agents/feedback.ts', 'export const feedback = 1;\n');
  write('benchmarks/spreadsheetbench/grid/testCaseGrid.ts', 'export const grid = 1;\n');
  write('benchmarks/spreadsheetbench/scoring/cellValue.ts', 'export const transformValue = 1;\n');
  write('benchmarks/workbook/ooxmlReader.ts', 'export const openWorkbookValues = 1;\n');
  write(
    'benchmarks/spreadsheetbench2/scoring/compareCell.ts',
    "import { transformValue } from '../../spreadsheetbench/scoring/cellValue';\nimport { openWorkbookValues } from '../../workbook/ooxmlReader';\nexport const c = [transformValue, openWorkbookValues];\n",
  );
  write(
    'benchmarks/dsbench/index.ts',
    "export const dsBench = { name: 'dsbench' };\nexport const own = (b: string) => b === 'dsbench';\n",
  );
  write(
    'activities/dsbench/index.ts',
    "import { feedback } from '../../benchmarks/spreadsheetbench/agents/feedback';\nexport const a = feedback;\n",
  );
  write(
    'server/routes/runPages.ts',
    [
      "import { grid } from '../../benchmarks/spreadsheetbench/grid/testCaseGrid';",
      '// a comment may say: benchmark === "spreadsheetbench"',
      "export const hasGrid = (run: { manifest: { benchmark: string } }) => run.manifest.benchmark !== 'spreadsheetbench' ? 0 : grid;",
      '',
    ].join('\n'),
  );
  write(
    'cli/commands/run.ts',
    [
      'export function recalc(benchmark: { name: string }): boolean {',
      '  switch (benchmark.name) {',
      "    case 'analysis':",
      '      return false;',
      '  }',
      "  return ['analysis', 'dsbench'].includes(benchmark.name) || benchmark.name == 'x';",
      '}',
      '',
    ].join('\n'),
  );
  write('web/views/TaskPage.js', "export const grids = (view) => 'spreadsheetbench' === view.benchmark;\n");
  const graph = readImportGraph(root);
  const breaks = ruleBreaks(graph).map(describeBreak);

  it('an upward import, naming both files and the layers', () => {
    expect(breaks).toContainEqual(
      expect.stringContaining(
        'lib/llm/provider.ts:1 imports workflows/run/benchmarkRun.ts (\'../../workflows/run/benchmarkRun\'): breaks "imports point down: lib (lib/) may not import workflows (workflows/)"',
      ),
    );
  });

  it('a workflow importing activity code by value', () => {
    expect(breaks).toContainEqual(
      expect.stringContaining('workflows/run/benchmarkRun.ts:1 imports activities/run/index.ts'),
    );
    expect(breaks).toContainEqual(expect.stringContaining('workflows see activities only as types'));
  });

  it('a shared home importing a concept, and one concept importing another (type-only imports too)', () => {
    expect(breaks).toContainEqual(
      expect.stringContaining('workflows/run/benchmarkRun.ts:2 imports workflows/spreadsheetbench/task.ts'),
    );
    expect(breaks).toContainEqual(
      expect.stringContaining('a shared home (workflows/run/benchmarkRun.ts) knows no concept'),
    );
    expect(breaks).toContainEqual(
      expect.stringContaining(
        "workflows/spreadsheetbench/task.ts:1 imports workflows/dsbench/question.ts ('../dsbench/question', type only): breaks \"concepts do not import each other",
      ),
    );
  });

  it('the browser app reaching into the server side, and the server side into the browser app', () => {
    expect(breaks).toContainEqual(expect.stringContaining('web/main.js:1 imports lib/llm/provider.ts'));
    expect(breaks).toContainEqual(expect.stringContaining('sees the server side only as types'));
    expect(breaks).toContainEqual(
      expect.stringContaining(
        'lib/llm/types.ts:1 imports web/main.js (\'../../web/main\'): breaks "the server side imports nothing of the browser app (web/)"',
      ),
    );
  });

  it("the browser app's JSDoc types of the server (`@import`, `import('…')`): seen, type-only, allowed", () => {
    const jsdoc = graph.imports.filter((i) => i.from === 'web/view.js');
    expect(jsdoc.map((i) => [i.line, i.to, i.typeOnly])).toEqual([
      [1, 'lib/llm/types.ts', true],
      [2, 'lib/llm/types.ts', true],
    ]);
    expect(breaks.filter((b) => b.startsWith('web/view.js'))).toEqual([]);
  });

  it('a cycle closed by type-only imports, with the imports that close it', () => {
    const { all, value } = importCycles(graph);
    expect(value).toEqual([]);
    expect(all.map(describeCycle)).toEqual([
      'cycle of 2 files: contracts/a.ts:1 → contracts/b.ts (type), contracts/b.ts:1 → contracts/a.ts (type)',
    ]);
  });

  it('a folder that is in no layer', () => {
    expect(unplacedFiles(graph)).toEqual(['scratch/tool.ts']);
  });

  it("one benchmark's folder using another benchmark's internals (across layers too)", () => {
    expect(breaks).toContainEqual(
      expect.stringContaining(
        "activities/dsbench/index.ts:1 imports benchmarks/spreadsheetbench/agents/feedback.ts ('../../benchmarks/spreadsheetbench/agents/feedback'): breaks \"a benchmark's folders do not import another benchmark's: activities/dsbench/ (dsbench) may not import benchmarks/spreadsheetbench/",
      ),
    );
  });

  it("SpreadsheetBench 2 using the first edition's scorer is a break (no exception); the shared workbook reader is not", () => {
    expect(breaks).toContainEqual(
      expect.stringContaining(
        'benchmarks/spreadsheetbench2/scoring/compareCell.ts:1 imports benchmarks/spreadsheetbench/scoring/cellValue.ts',
      ),
    );
    expect(breaks.filter((b) => b.includes('imports benchmarks/workbook/'))).toEqual([]);
  });

  it('code that serves every benchmark (the server, workers, client) looking inside one', () => {
    expect(breaks).toContainEqual(
      expect.stringContaining(
        "server/routes/runPages.ts:1 imports benchmarks/spreadsheetbench/grid/testCaseGrid.ts ('../../benchmarks/spreadsheetbench/grid/testCaseGrid'): breaks \"server/ serves every benchmark: it reaches benchmarks/spreadsheetbench/ only through the registry",
      ),
    );
  });

  it("a branch on a benchmark's name outside benchmarks/: comparisons either way round, case labels, switch, name lists", () => {
    const sources = graph.files.map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));
    const found = benchmarkNameBranches(sources, ['spreadsheetbench', 'dsbench', 'analysis']).map(
      (b) => `${b.file}:${b.line}`,
    );
    // Not the comment (runPages.ts:2), not the benchmark's own folder (benchmarks/dsbench/index.ts).
    expect(found).toEqual([
      'cli/commands/run.ts:2',
      'cli/commands/run.ts:3',
      'cli/commands/run.ts:6',
      'server/routes/runPages.ts:3',
      'web/views/TaskPage.js:1',
    ]);
    expect(benchmarkNameBranches(sources, ['spreadsheetbench']).map(describeNameBranch)).toContainEqual(
      "server/routes/runPages.ts:3 branches on a benchmark's name (ask the Benchmark instead): export const hasGrid = (run: { manifest: { benchmark: string } }) => run.manifest.benchmark !== 'spreadsheetbench' ? 0 : grid;",
    );
  });
});

/** Folders (outside test/, data/ and tool folders) that hold source files. */
function sourceFolders(): string[] {
  const found = new Set<string>();
  const layerRoots = LAYERS.flatMap((l) => l.folders);
  const walk = (dir: string) => {
    const entries = readdirSync(path.join(REPO, dir), { withFileTypes: true });
    if (entries.some((e) => e.isFile() && /\.(ts|js|mjs|py)$/.test(e.name))) found.add(dir);
    for (const e of entries)
      if (e.isDirectory() && !['node_modules', 'out', '__pycache__'].includes(e.name))
        walk(path.posix.join(dir, e.name));
  };
  for (const root of layerRoots) if (existsSync(path.join(REPO, root))) walk(root.replace(/\/$/, ''));
  return [...found].sort();
}

/**
 * A folder is described by its own README.md, or by a row naming its path (`` `run/legacy/` ``) in the README.md of a
 * folder above it: each layer keeps one table of its folders.
 */
function described(dir: string): boolean {
  if (existsSync(path.join(REPO, dir, 'README.md'))) return true;
  for (let above = path.posix.dirname(dir); above !== '.'; above = path.posix.dirname(above)) {
    const readme = path.join(REPO, above, 'README.md');
    if (existsSync(readme) && readFileSync(readme, 'utf8').includes(`\`${path.posix.relative(above, dir)}/\``))
      return true;
  }
  return false;
}
