import { z } from 'zod';
import type { Sandbox } from '../../lib/sandbox/types';
import type { PythonCell } from './types';

/** Budget of the restore's own helper cells (changing folder, listing names). */
const HELPER_CELL_TIMEOUT_MS = 30_000;

export interface RestoreReport {
  ok: boolean;
  /** Cells re-run successfully, of `cells` to re-run. */
  restoredCells: number;
  cells: number;
  /** Turns whose cells were re-run. */
  turns: string[];
  durationMs: number;
  /** Why the restore stopped (a cell that now fails, the budget, a crash). */
  failure?: string;
  /** Names the earlier cells defined that the kernel does not have now (a failed restore's loss). */
  lostVariables?: string[];
}

/**
 * Rebuilds a lost kernel's state by re-running the conversation's earlier successful cells in order, each in the
 * folder it ran in, within `budgetMs` in all (a cell gets what is left, at most the execution limit). The first cell
 * that fails, times out or kills the kernel ends it: the report then names the variables that are gone.
 */
export async function restoreSession(
  sandbox: Sandbox,
  cells: PythonCell[],
  opts: { budgetMs: number; executionTimeoutMs: number; signal?: AbortSignal },
): Promise<RestoreReport> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const turns = [...new Set(cells.map((c) => c.turnId))];
  let restoredCells = 0;
  let failure: string | undefined;
  for (const [i, cell] of cells.entries()) {
    const where = `cell ${i + 1} of ${cells.length} (turn ${cell.turnId}, call ${cell.callId})`;
    const left = opts.budgetMs - elapsed();
    if (left <= 0) {
      failure = `the restore budget of ${seconds(opts.budgetMs)} ran out before ${where}`;
      break;
    }
    await sandbox.execute(chdirCell(sandbox.workDirInside, cell.workingDir), {
      timeoutMs: HELPER_CELL_TIMEOUT_MS,
      signal: opts.signal,
    });
    const r = await sandbox.execute(cell.code, {
      timeoutMs: Math.min(left, opts.executionTimeoutMs),
      signal: opts.signal,
    });
    if (r.stateReset) failure = `${where} killed the kernel when re-run`;
    else if (r.timedOut)
      failure =
        left <= opts.executionTimeoutMs
          ? `the restore budget of ${seconds(opts.budgetMs)} ran out during ${where}`
          : `${where} exceeded the execution limit when re-run`;
    else if (r.error) failure = `${where} now fails: ${lastLine(r.error)}`;
    if (failure) break;
    restoredCells++;
  }
  // Figures the re-run cells drew were shown when those cells ran: they are not captured again.
  await sandbox.execute(CLOSE_FIGURES_CELL, { timeoutMs: HELPER_CELL_TIMEOUT_MS, signal: opts.signal });
  const base = { restoredCells, cells: cells.length, turns, durationMs: elapsed() };
  if (!failure) return { ok: true, ...base };
  return { ok: false, ...base, failure, lostVariables: await lostVariables(sandbox, cells, opts.signal) };
}

const CLOSE_FIGURES_CELL =
  "__import__('sys').modules['matplotlib.pyplot'].close('all') if 'matplotlib.pyplot' in __import__('sys').modules else None";

/** Changes the kernel's folder to a cell's working folder (the workspace root when it had none). */
export function chdirCell(root: string, workingDir = ''): string {
  return `__import__('os').chdir(__import__('os').path.join(${JSON.stringify(root)}, ${JSON.stringify(workingDir)}))`;
}

/**
 * Names the cells bind at module level (assignments, imports, functions, classes, loop and `with` targets; not what
 * is local to a function or comprehension) that the kernel's namespace lacks now, sorted.
 */
const LOST_NAMES = `
import ast, json
names = set()
def walk(node):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(child.name)
            continue
        if isinstance(child, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            names.add(child.id)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            names.update(a.asname or a.name.split('.')[0] for a in child.names if a.name != '*')
        walk(child)
for source in cells:
    try:
        walk(ast.parse(source))
    except SyntaxError:
        pass
print(json.dumps(sorted(n for n in names if not n.startswith('_') and n not in user_ns)))
`;

async function lostVariables(sandbox: Sandbox, cells: PythonCell[], signal?: AbortSignal): Promise<string[]> {
  const cell = `exec(${JSON.stringify(LOST_NAMES)}, {'user_ns': globals(), 'cells': __import__('json').loads(${JSON.stringify(JSON.stringify(cells.map((c) => c.code)))})})`;
  const r = await sandbox.execute(cell, { timeoutMs: HELPER_CELL_TIMEOUT_MS, signal });
  // Names only enrich the restore report: a helper cell that printed no list (it was killed, or printed something
  // else last) reports none rather than failing the restore.
  try {
    const names = z.array(z.string()).safeParse(JSON.parse(r.stdout.trim().split('\n').pop() ?? '[]'));
    return names.success ? names.data : [];
  } catch {
    return [];
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? text;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`;
