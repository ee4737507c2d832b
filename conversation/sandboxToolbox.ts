import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Sandbox, SandboxFactory } from '../sandbox/types';
import type { ToolSpec } from '../llm/types';
import { mimeTypeOf } from './mime';
import type { ExecutionLike, Toolbox, ToolOutcome, ToolRunContext } from './toolbox';
import type { FileInfo } from './types';

const pythonArgs = z.object({
  code: z.string().min(1).describe('Python source; variables persist between calls of one conversation'),
  timeout: z.number().int().positive().max(600).optional().describe('seconds'),
});

const MANIFEST = 'visualization_manifest.json';

/**
 * A minimal toolbox over the project's sandbox: `python_execute` in one persistent kernel per conversation whose only
 * writable folder is the workspace. Used when the full tool set (analysis/tools) is not plugged into the worker.
 */
export function sandboxToolbox(sandboxFactory: () => Promise<SandboxFactory>, opts: { timeoutMs: number; memoryMiB: number }): Toolbox {
  const kernels = new Map<string, Promise<Sandbox>>();
  // One kernel runs one execution at a time: parallel agents of a conversation queue here.
  const queues = new Map<string, Promise<unknown>>();
  const serial = <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(id) ?? Promise.resolve()).then(work, work);
    queues.set(id, next.catch(() => undefined));
    return next;
  };
  const kernelOf = (ctx: ToolRunContext) => {
    let kernel = kernels.get(ctx.conversationId);
    if (!kernel) {
      kernel = sandboxFactory().then((f) => f.create({ workDir: ctx.workspaceDir, limits: { memoryMiB: opts.memoryMiB } }));
      kernels.set(ctx.conversationId, kernel);
      kernel.catch(() => kernels.delete(ctx.conversationId));
    }
    return kernel;
  };
  return {
    specs: (names) => [pythonSpec()].filter((s) => !names || names.includes(s.function.name)),
    async run(name, rawArgs, ctx): Promise<ToolOutcome> {
      const started = Date.now();
      if (name !== 'python_execute') return { ok: false, error: `unknown tool "${name}"; available: python_execute`, durationMs: 0 };
      const args = pythonArgs.safeParse(rawArgs);
      if (!args.success) return { ok: false, error: `invalid arguments for python_execute: ${z.prettifyError(args.error)}`, durationMs: 0 };
      const timer = setInterval(() => ctx.heartbeat?.(), 5_000);
      try {
        const timeoutMs = (args.data.timeout ?? opts.timeoutMs / 1000) * 1000;
        const r = await serial(ctx.conversationId, async () => (await kernelOf(ctx)).execute(args.data.code, { timeoutMs, signal: ctx.signal }));
        const files = await fileInfos(ctx.workspaceDir, r.files);
        const result: ExecutionLike & { success: boolean; executionTime: number } = {
          success: !r.error && !r.timedOut,
          stdout: r.stdout,
          stderr: r.error ? `${r.stderr}${r.stderr ? '\n' : ''}${r.error}` : r.stderr,
          returnCode: r.error || r.timedOut ? 1 : 0,
          files,
          visualizations: r.files.includes(MANIFEST) ? await manifestOutputs(ctx.workspaceDir) : undefined,
          executionTime: r.durationMs / 1000,
        };
        return { ok: result.success, result, error: r.timedOut ? `execution timed out` : r.error || undefined, durationMs: Date.now() - started };
      } finally {
        clearInterval(timer);
      }
    },
    async dispose(conversationId) {
      const kernel = kernels.get(conversationId);
      kernels.delete(conversationId);
      await (await kernel?.catch(() => undefined))?.dispose();
    },
  };
}

function pythonSpec(): ToolSpec {
  return {
    type: 'function',
    function: {
      name: 'python_execute',
      description: 'Run Python in the conversation sandbox (workspace is the current folder, no network). Returns stdout, stderr and files written.',
      parameters: z.toJSONSchema(pythonArgs) as Record<string, unknown>,
    },
  };
}

async function fileInfos(workspace: string, relPaths: string[]): Promise<FileInfo[]> {
  const infos = await Promise.all(
    relPaths.map(async (p) => {
      const s = await stat(path.join(workspace, p)).catch(() => undefined);
      return s?.isFile() ? { filename: path.basename(p), path: p, type: mimeTypeOf(p), size: s.size } : undefined;
    }),
  );
  return infos.filter((i): i is FileInfo => i !== undefined);
}

/** The manifest's outputs as written (the full validator lives with the tools); unreadable → none. */
async function manifestOutputs(workspace: string): Promise<unknown[]> {
  try {
    const manifest = JSON.parse(await readFile(path.join(workspace, MANIFEST), 'utf8')) as { outputs?: unknown };
    return Array.isArray(manifest.outputs) ? manifest.outputs : [];
  } catch {
    return [];
  }
}
