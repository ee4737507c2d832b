/**
 * The repository's import graph, read with the TypeScript compiler's parser: every relative import, re-export, dynamic
 * `import()` and `import('…')` type of every .ts/.js/.mjs source file (in JSDoc too: `@import` and `import('…')` types
 * of the browser app's JavaScript), resolved to the file it names, and whether it is type-only (erased at run time). Used by the layer rule (layers.ts) and by bench/layout.ts, which prints the figures.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Import {
  /** Repository-relative, `/`-separated. */
  from: string;
  to: string;
  /** 1-based line of the import in `from`. */
  line: number;
  /** As written (`../lib/llm`). */
  specifier: string;
  typeOnly: boolean;
}

export interface ImportGraph {
  root: string;
  files: string[];
  imports: Import[];
  /** Relative specifiers that name no file (a typo, or a file that moved). */
  unresolved: Import[];
}

/** Folders that hold no source of the project. */
const NOT_SOURCE = new Set(['node_modules', '.git', '.tools', '.state', 'runs', 'out', '__pycache__']);
const SOURCE = /\.(ts|js|mjs)$/;

export function sourceFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (NOT_SOURCE.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(root, full));
    else if (entry.isFile() && SOURCE.test(entry.name)) out.push(toRepoPath(root, full));
  }
  return out;
}

export function readImportGraph(root: string): ImportGraph {
  const files = sourceFiles(root);
  const imports: Import[] = [];
  const unresolved: Import[] = [];
  for (const from of files) {
    for (const found of importsOf(root, from)) (found.to ? imports : unresolved).push(found);
  }
  return { root, files, imports, unresolved };
}

function importsOf(root: string, from: string): Import[] {
  const text = readFileSync(path.join(root, from), 'utf8');
  const source = ts.createSourceFile(from, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const isJs = /\.m?js$/.test(from);
  const add = (literal: ts.Node | undefined, typeOnly: boolean) => {
    if (!literal || !ts.isStringLiteralLike(literal) || !literal.text.startsWith('.')) return;
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    found.push({ from, to: resolveSpecifier(root, from, literal.text) ?? '', line, specifier: literal.text, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0], false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    else if (ts.isJSDocImportTag(node)) add(node.moduleSpecifier, true);
    // JSDoc is not among a node's children: a JavaScript file's types (its imports of types) are visited apart. `jsDoc`
    // (the comments attached to this node) is the parser's own field, not in the public typings.
    if (isJs) (node as { jsDoc?: ts.JSDoc[] }).jsDoc?.forEach(visit);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `import type {…}`, or an import whose every named binding is `type`: nothing of it survives compilation. */
function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  const base = path.resolve(root, path.dirname(from), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.d.ts`,
    `${base}.js`,
    `${base}.mjs`,
    // TypeScript's own rule: `./x.js` names `./x.ts` (vitest.config.ts imports this way, as Vite's native loader wants).
    base.replace(/\.js$/, '.ts'),
    path.join(base, 'index.ts'),
    path.join(base, 'index.js'),
  ];
  const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return hit ? toRepoPath(root, hit) : undefined;
}

function toRepoPath(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/** Files that import each other in a loop: Tarjan's strongly connected components of more than one file (or a file importing itself). */
export function cycles(imports: readonly Import[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const i of imports) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) connect(v);
  return found;
}

/** One loop through a component, as the imports that close it (for the message: where to cut). */
export function loopThrough(component: readonly string[], imports: readonly Import[]): Import[] {
  const inside = new Set(component);
  const out = new Map<string, Import[]>();
  for (const i of imports) if (inside.has(i.from) && inside.has(i.to)) out.set(i.from, [...(out.get(i.from) ?? []), i]);
  const start = component[0];
  // Breadth-first from start back to start: the shortest loop.
  const via = new Map<string, Import>();
  const queue = [start];
  while (queue.length) {
    const at = queue.shift()!;
    for (const step of out.get(at) ?? []) {
      if (step.to === start) {
        const loop = [step];
        for (let f = at; f !== start; f = via.get(f)!.from) loop.unshift(via.get(f)!);
        return loop;
      }
      if (!via.has(step.to)) {
        via.set(step.to, step);
        queue.push(step.to);
      }
    }
  }
  return [];
}
