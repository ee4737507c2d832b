import { ToolRefusal } from '../tools/types';
import { workspaceBytes } from './files';

const MB = 1024 * 1024;

export function formatBytes(n: number): string {
  return n >= MB ? `${(n / MB).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}

/** Refuses a write of `incoming` bytes that would take the workspace over its limit. */
export async function assertRoomFor(root: string, incoming: number, maxBytes: number): Promise<void> {
  const used = await workspaceBytes(root);
  if (used + incoming > maxBytes) {
    throw new ToolRefusal(
      `workspace limit: writing ${formatBytes(incoming)} would take the workspace to ${formatBytes(used + incoming)}, over its ${formatBytes(maxBytes)} limit; delete or shrink files first`,
    );
  }
}

/** Bytes still free in the workspace. */
export async function roomLeft(root: string, maxBytes: number): Promise<number> {
  return Math.max(0, maxBytes - (await workspaceBytes(root)));
}
