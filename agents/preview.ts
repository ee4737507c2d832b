import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..');

export function sandboxPython(): string {
  const py = process.env.SHEETBENCH_SANDBOX_PYTHON ?? path.join(REPO_ROOT, '.tools/sandbox-py/bin/python');
  if (!existsSync(py)) throw new Error(`sandbox Python not found at ${py}: run \`npm run setup\``);
  return py;
}

/** The official `spreadsheet_content` preview of every sheet (first `rows` rows, pandas formatting). */
export async function spreadsheetPreview(inputPath: string, rows: number): Promise<string> {
  try {
    const { stdout } = await run(sandboxPython(), [path.join(HERE, 'preview.py'), inputPath, String(rows)], {
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { PATH: '/usr/bin:/bin', OPENBLAS_NUM_THREADS: '1', HOME: '/tmp' },
    });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    const last = (e.stderr ?? e.message).trim().split('\n').pop();
    throw new Error(`cannot preview ${path.basename(inputPath)}: ${last}`);
  }
}
