import { lstat, realpath, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ExecutionResult } from '../../lib/sandbox/types';
import { MANIFEST_FILE } from '../manifest/schema';
import { describeFile, workspaceBytes } from '../workspace/files';
import { INTERNAL_DIR, isInside } from '../workspace/paths';
import { formatBytes } from '../workspace/quota';
import type { ToolContext, WorkspaceFile } from './types';

/** What python_execute and node_execute return to the model. */
export interface ExecutionReport {
  success: boolean;
  stdout: string;
  stderr: string;
  returnCode: number;
  /** The error the model should fix ('' when the code ran cleanly). */
  error: string;
  /** Files the execution created or changed. */
  files: WorkspaceFile[];
  /** Seconds. */
  executionTime: number;
  timedOut: boolean;
  /** True when earlier variables are gone (kernel restarted, or this worker never ran the earlier calls). */
  stateReset: boolean;
  truncated: boolean;
}

/**
 * Turns a sandbox result into the report, enforcing the workspace limit: when the execution took the workspace over
 * it, the files it wrote are deleted (largest first, until under the limit) and the call fails with a clear message.
 */
export async function describeExecution(result: ExecutionResult, ctx: ToolContext): Promise<ExecutionReport> {
  const changed = result.files.filter((f) => !f.startsWith(`${INTERNAL_DIR}/`));
  const overLimit = await enforceWorkspaceLimit(ctx, changed);
  const files = await describeExisting(ctx.workspaceDir, changed);
  const error = [result.error, overLimit].filter(Boolean).join('\n');
  const [stdout, outCut] = clip(result.stdout, ctx.config.maxReturnChars);
  const [stderr, errCut] = clip(result.stderr, ctx.config.maxReturnChars);
  return {
    success: error === '' && (result.exitCode ?? 0) === 0,
    stdout,
    stderr,
    // A Python exception leaves the kernel running (exit code 0): report it as 1 like a failed script would.
    returnCode: result.exitCode || (error ? 1 : 0),
    error,
    files,
    executionTime: Math.round(result.durationMs) / 1000,
    timedOut: result.timedOut,
    stateReset: result.stateReset,
    truncated: result.truncated || outCut || errCut,
  };
}

async function describeExisting(root: string, paths: string[]): Promise<WorkspaceFile[]> {
  const out: WorkspaceFile[] = [];
  for (const path of paths) {
    const info = await lstat(join(root, path)).catch(() => null); // removed by the code meanwhile: not reported
    if (info?.isFile()) out.push(describeFile(path, info.size));
  }
  return out;
}

async function enforceWorkspaceLimit(ctx: ToolContext, changed: string[]): Promise<string> {
  const max = ctx.config.workspaceMaxBytes;
  let used = await workspaceBytes(ctx.workspaceDir);
  if (used <= max) return '';
  const sized = await Promise.all(
    changed
      .filter((p) => p !== MANIFEST_FILE)
      .map(async (p) => ({ p, size: (await lstat(join(ctx.workspaceDir, p)).catch(() => ({ size: 0 }))).size })),
  );
  const removed: string[] = [];
  for (const { p, size } of sized.sort((a, b) => b.size - a.size)) {
    if (used <= max) break;
    if (!(await removeInWorkspace(ctx.workspaceDir, p))) continue;
    removed.push(`${p} (${formatBytes(size)})`);
    used -= size;
  }
  return (
    `WorkspaceLimitError: the workspace exceeded its ${formatBytes(max)} limit; removed the files this execution wrote: ${removed.join(', ') || 'none'}. ` +
    'Write smaller outputs (aggregate, sample, or compress) or delete files you no longer need.'
  );
}

/** Unlinks a workspace file unless a folder on its way was swapped for a symlink leading out (the worker may be root). */
async function removeInWorkspace(root: string, rel: string): Promise<boolean> {
  const path = join(root, rel);
  const parent = await realpath(dirname(path)).catch(() => null); // no such folder: not a file of the workspace
  if (!parent || !isInside(await realpath(root), parent)) return false;
  const target = join(parent, basename(path));
  if (!(await lstat(target).catch(() => null))?.isFile()) return false; // no such file
  await unlink(target);
  return true;
}

/** Keeps the head and the tail of long output (the tail usually holds the error). */
export function clip(text: string, max: number): [string, boolean] {
  if (text.length <= max) return [text, false];
  const head = Math.floor(max * 0.4);
  const tail = max - head;
  return [`${text.slice(0, head)}\n… [${text.length - max} characters cut] …\n${text.slice(-tail)}`, true];
}
