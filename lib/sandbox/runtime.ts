import { existsSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { SandboxSetupError } from './errors';
import { kernelScriptPath, sandboxPythonPath, zygoteScriptPath } from './paths';

/**
 * Where the sandbox's own files appear inside it: fixed paths, whatever the host paths are (a checkout under /tmp,
 * with spaces or non-ASCII characters, through a symlink). Nothing of the sandbox lives under /tmp inside, so the
 * fresh /tmp every sandbox (and every forked kernel) gets hides none of it; the checkout's path is never seen inside.
 */
export const INSIDE = {
  /** The Python environment (the venv folder), read-only. */
  venv: '/opt/sheetbench/python',
  kernel: '/opt/sheetbench/kernel.py',
  zygote: '/opt/sheetbench/zygote.py',
  /** The node binary, when it is not already under /usr. */
  node: '/opt/sheetbench/node/bin/node',
} as const;

/** What the sandbox runs, on the host: the environment's python and the kernel scripts (tests may place them elsewhere). */
export interface SandboxRuntime {
  /** The environment's python, e.g. `<checkout>/.tools/sandbox-py/bin/python`. */
  python: string;
  kernel: string;
  zygote: string;
}

/** The checkout's runtime (`SHEETBENCH_SANDBOX_PYTHON` overrides the python). */
export function defaultRuntime(env: NodeJS.ProcessEnv = process.env): SandboxRuntime {
  return { python: sandboxPythonPath(env), kernel: kernelScriptPath, zygote: zygoteScriptPath };
}

/** One read-only bind: host path → path inside. */
export type Bind = [host: string, inside: string];

/** The environment's folder (`<venv>/bin/python` → `<venv>`). */
export function venvOf(python: string): string {
  return dirname(dirname(python));
}

const underUsr = (path: string) => path === '/usr' || path.startsWith('/usr/');

/** The python as the sandbox runs it, and the bind that puts its environment there (none for a python under /usr). */
export function pythonInside(python: string): { python: string; binds: Bind[] } {
  const venv = venvOf(python);
  if (underUsr(venv)) return { python, binds: [] };
  return { python: `${INSIDE.venv}/${relative(venv, python)}`, binds: [[venv, INSIDE.venv]] };
}

/** The node binary as the sandbox runs it, and its bind (none when it is under /usr, which every sandbox sees). */
export function nodeInside(execPath: string = process.execPath): { node: string; binds: Bind[] } {
  if (underUsr(execPath)) return { node: execPath, binds: [] };
  return { node: INSIDE.node, binds: [[execPath, INSIDE.node]] };
}

/** The runtime's host paths with what each is, for the reachability check: each must be readable by the sandbox's uid. */
export function runtimeHostPaths(rt: SandboxRuntime, opts: { zygote: boolean }): Array<{ path: string; what: string }> {
  const paths = [
    { path: venvOf(rt.python), what: "the sandbox's Python environment" },
    { path: rt.kernel, what: "the sandbox's kernel script" },
    ...(opts.zygote ? [{ path: rt.zygote, what: "the sandbox's fork server script" }] : []),
  ];
  return paths.filter((p) => !underUsr(p.path));
}

/** A missing runtime file: names the path and the set-up command that makes it. */
export function assertRuntimeInstalled(rt: SandboxRuntime): void {
  if (!existsSync(rt.python)) {
    throw new SandboxSetupError(
      `the sandbox's Python environment is missing: ${rt.python} does not exist${process.env.SHEETBENCH_SANDBOX_PYTHON ? ' (SHEETBENCH_SANDBOX_PYTHON)' : ''}. ` +
        'Fix: run `bash scripts/setup.sh` in the checkout (it builds .tools/sandbox-py), or point SHEETBENCH_SANDBOX_PYTHON at a python that has the packages of lib/sandbox/requirements.txt',
    );
  }
  for (const script of [rt.kernel, rt.zygote]) {
    if (!existsSync(script))
      throw new SandboxSetupError(
        `the sandbox's kernel script ${script} is missing: the checkout is incomplete (git checkout -- lib/sandbox)`,
      );
  }
}
