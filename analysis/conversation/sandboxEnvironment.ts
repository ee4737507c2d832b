import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { sandboxPythonPath } from '../../lib/sandbox/paths';

const sandboxEnvironmentSchema = z.object({
  python: z.string().optional(),
  packages: z.record(z.string(), z.string()).optional(),
});

export type SandboxEnvironment = z.infer<typeof sandboxEnvironmentSchema>;

const SCRIPT = `import json, sys, importlib.metadata as m
out = {}
for name in sys.argv[1:]:
    try: out[name] = m.version(name)
    except Exception: pass
print(json.dumps({"python": sys.version.split()[0], "packages": out}))`;

let cached: Promise<SandboxEnvironment> | undefined;

/**
 * The sandbox interpreter's version and the allowed packages' versions (asked once per worker). Shown in the debug
 * view only: when the interpreter cannot say (not installed, or a reply of another shape) the cause is logged once,
 * naming the interpreter, and the view shows them as unknown ({}).
 */
export function sandboxEnvironment(packages: string[]): Promise<SandboxEnvironment> {
  cached ??= promisify(execFile)(sandboxPythonPath(), ['-c', SCRIPT, ...packages], { timeout: 30_000 })
    .then(({ stdout }) => sandboxEnvironmentSchema.parse(JSON.parse(stdout)))
    .catch((err: unknown) => {
      console.warn(`sandbox environment unknown (${sandboxPythonPath()} -c …): ${String(err).slice(0, 300)}`);
      return {};
    });
  return cached;
}
