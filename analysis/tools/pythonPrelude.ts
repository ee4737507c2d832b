import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PYTHON_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../python');

/** The source of `sheetbench_viz` (save_table, save_chart, …): the sandbox preloads it; exported notebooks define it. */
export const helperSource = readFileSync(resolve(PYTHON_DIR, 'sheetbench_viz.py'), 'utf8');

/** The source of `sheetbench_downloads`: serves the URLs fetched for a call's code (codeDownloads.ts). */
const downloadsSource = readFileSync(resolve(PYTHON_DIR, 'served_downloads.py'), 'utf8');

/**
 * Runs before each python_execute call, inside the kernel: loads the helpers as module `sheetbench_viz` when the
 * kernel is fresh (then binds save_table/save_chart/… in the user's namespace), points them at the workspace, changes
 * to the working folder, serves the URLs fetched for this call's code (from their saved files; none when the call has
 * none; `web_fetch(url)` then reads one in Python, unless the code defined its own) and reports missing packages. Prints one JSON line: {fresh, missing}.
 */
const PREPARE = `
import sys, os, json, types, importlib.util
fresh = 'sheetbench_viz' not in sys.modules
if fresh:
    module = types.ModuleType('sheetbench_viz')
    exec(compile(args['source'], 'sheetbench_viz.py', 'exec'), module.__dict__)
    sys.modules['sheetbench_viz'] = module
    for name in module.__all__:
        user_ns[name] = getattr(module, name)
    import warnings
    # Figures are captured after each call, so plt.show() under the Agg backend is not a mistake worth a warning.
    warnings.filterwarnings('ignore', message='.*non-interactive.*')
helpers = sys.modules['sheetbench_viz']
helpers._set_root(args['root'])
helpers._begin_execution()
os.chdir(os.path.join(args['root'], args['workingDir']))
if args['downloads'] and 'sheetbench_downloads' not in sys.modules:
    served = types.ModuleType('sheetbench_downloads')
    exec(compile(args['downloadsSource'], 'served_downloads.py', 'exec'), served.__dict__)
    sys.modules['sheetbench_downloads'] = served
if 'sheetbench_downloads' in sys.modules:
    sys.modules['sheetbench_downloads'].serve({url: os.path.join(args['root'], rel) for url, rel in args['downloads'].items()})
    user_ns.setdefault('web_fetch', sys.modules['sheetbench_downloads'].web_fetch)
missing = [m for m in args['modules'] if importlib.util.find_spec(m) is None]
print(json.dumps({'fresh': fresh, 'missing': missing}))
`;

export function prepareCell(opts: {
  root: string;
  workingDir: string;
  modules: string[];
  /** URL → workspace-relative file, fetched for this call's code. */
  downloads?: Record<string, string>;
}): string {
  const downloads = opts.downloads ?? {};
  const args = {
    source: helperSource,
    ...opts,
    downloads,
    downloadsSource: Object.keys(downloads).length ? downloadsSource : '',
  };
  // JSON string literals are valid Python string literals.
  return `exec(${JSON.stringify(PREPARE)}, {'user_ns': globals(), 'args': __import__('json').loads(${JSON.stringify(JSON.stringify(args))})})`;
}

/** Runs after each call: saves open matplotlib figures as PNGs listed in the manifest. */
export const CAPTURE_FIGURES_CELL =
  "__import__('sys').modules['sheetbench_viz']._capture_figures() if 'sheetbench_viz' in __import__('sys').modules else None";

export interface PrepareReply {
  fresh: boolean;
  missing: string[];
}

/** The prelude's last line of output (the sandbox's Python, another process), checked. */
const prepareReplySchema = z.looseObject({ fresh: z.boolean(), missing: z.array(z.string()) });

/** The prelude's reply, or null when its last line is not one (callers report the prelude as failed, with its stderr). */
export function parsePrepareReply(stdout: string): PrepareReply | null {
  const line = stdout.trim().split('\n').pop() ?? '';
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = prepareReplySchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
