import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../config/paths';

const sandboxDir = dirname(fileURLToPath(import.meta.url));

/** Repository root, resolved from this file's location (not the current directory). */
export const repoRoot = REPO_ROOT;

/** The kernel script every Python sandbox runs. */
export const kernelScriptPath = resolve(sandboxDir, 'kernel.py');

/** The fork server kernels are forked from (bwrap backend, one-shot executions). */
export const zygoteScriptPath = resolve(sandboxDir, 'zygote.py');

/** The sandbox venv's python (`.tools/sandbox-py/bin/python`); env SHEETBENCH_SANDBOX_PYTHON overrides. */
export function sandboxPythonPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.SHEETBENCH_SANDBOX_PYTHON || resolve(repoRoot, '.tools/sandbox-py/bin/python');
}

export function assertSandboxPython(python: string): void {
  if (!existsSync(python)) {
    throw new Error(
      `the sandbox's Python environment is missing: ${python} does not exist. Fix: run \`bash scripts/setup.sh\` in the checkout (or set SHEETBENCH_SANDBOX_PYTHON)`,
    );
  }
}

/** Where execution work dirs are made when `sandbox.workRoot` is not set. */
export function defaultWorkRoot(): string {
  return join(tmpdir(), 'sheetbench-work');
}
