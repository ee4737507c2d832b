import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { describeFile, listWorkspaceFiles } from '../workspace/files';
import { handToSandbox, mkdirForSandbox } from '../workspace/ownership';
import { checkRelativePath, resolveInWorkspace } from '../workspace/paths';
import { assertRoomFor } from '../workspace/quota';
import { readInWorkspace, writeInWorkspace } from '../workspace/safeFiles';
import { ToolRefusal, type AnalysisTool, type ToolContext, type WorkspaceFile } from './types';

export const fileSystemArgs = z.object({
  action: z.enum(['read', 'write', 'list', 'exists']),
  path: z
    .string()
    .default('.')
    .describe('Path relative to the workspace, e.g. "sales.csv" or "out/summary.txt" ("." for list)'),
  content: z.string().optional().describe('Text to write (action "write" only); replaces the file'),
});
type FileSystemArgs = z.infer<typeof fileSystemArgs>;

export type FileSystemResult =
  | { action: 'read'; path: string; content: string; size: number; truncated: boolean }
  | { action: 'write'; file: WorkspaceFile }
  | { action: 'list'; path: string; files: WorkspaceFile[] }
  | { action: 'exists'; path: string; exists: boolean; kind?: 'file' | 'directory' };

export const fileSystemTool: AnalysisTool<FileSystemArgs, FileSystemResult> = {
  name: 'file_system',
  description:
    'Reads, writes, lists or checks files in the conversation workspace (the folder python_execute sees as its working directory). Paths are relative; absolute paths, ".." and symlinks leading out are refused.',
  args: fileSystemArgs,
  async run(args, ctx) {
    switch (args.action) {
      case 'read':
        return read(args.path, ctx);
      case 'write':
        return write(args.path, args.content, ctx);
      case 'list':
        return list(args.path, ctx);
      case 'exists':
        return exists(args.path, ctx);
    }
  },
};

async function read(path: string, ctx: ToolContext): Promise<FileSystemResult> {
  const limit = ctx.config.maxReturnChars;
  const { data, size } = await readInWorkspace(ctx.workspaceDir, path, limit * 4);
  const text = data.toString('utf8');
  if (text.includes('\0')) throw new ToolRefusal(`${path} is binary (${size} bytes); read it with python_execute`);
  const content = text.slice(0, limit);
  return {
    action: 'read',
    path: checkRelativePath(path),
    content,
    size,
    truncated: content.length < text.length || data.length < size,
  };
}

async function write(path: string, content: string | undefined, ctx: ToolContext): Promise<FileSystemResult> {
  if (content === undefined) throw new ToolRefusal('action "write" needs "content"');
  const rel = checkRelativePath(path);
  if (rel === '') throw new ToolRefusal('action "write" needs a file path');
  const host = await resolveInWorkspace(ctx.workspaceDir, rel);
  const bytes = Buffer.byteLength(content);
  const previous = (await stat(host).catch(() => null))?.size ?? 0; // a new file: nothing before
  await assertRoomFor(ctx.workspaceDir, bytes - previous, ctx.config.workspaceMaxBytes);
  await mkdirForSandbox(ctx.workspaceDir, dirname(host));
  await handToSandbox(await writeInWorkspace(ctx.workspaceDir, rel, content));
  return { action: 'write', file: describeFile(rel, bytes) };
}

async function list(path: string, ctx: ToolContext): Promise<FileSystemResult> {
  const rel = checkRelativePath(path);
  const host = await resolveInWorkspace(ctx.workspaceDir, rel);
  const info = await stat(host).catch(() => null); // no such file: told to the model below
  if (!info?.isDirectory()) throw new ToolRefusal(`${path} is not a folder of the workspace`);
  const files = await listWorkspaceFiles(ctx.workspaceDir, rel);
  return { action: 'list', path: rel || '.', files };
}

async function exists(path: string, ctx: ToolContext): Promise<FileSystemResult> {
  const rel = checkRelativePath(path);
  const info = await stat(await resolveInWorkspace(ctx.workspaceDir, rel)).catch(() => null); // no such file (or outside the workspace): told to the model below
  if (!info) return { action: 'exists', path: rel, exists: false };
  return { action: 'exists', path: rel, exists: true, kind: info.isDirectory() ? 'directory' : 'file' };
}
