import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import type { ConversationEvent } from '../conversation/events';
import type { ConversationLayout } from '../conversation/layout';
import { readInWorkspace } from '../workspace/safeFiles';

/** A download larger than this is not shipped (the conversation's workspace limit is far above what a zip should carry). */
const FILE_BYTES = 100 * 1024 * 1024;

/** Workspace name → bytes of everything the exported code reads from outside itself. */
export type Inputs = Map<string, Buffer>;

/**
 * The uploads as they were uploaded (`inputs/`; for conversations from before it, the files messages named, as the
 * workspace holds them now) and the files `web_fetch` downloaded, as the workspace holds them. Read without following
 * a link out of the workspace.
 */
export async function collectInputs(
  layout: ConversationLayout,
  events: ConversationEvent[],
  downloads: string[],
): Promise<Inputs> {
  const inputs: Inputs = new Map();
  const uploaded = (await readdir(layout.inputs, { withFileTypes: true }).catch(() => [])) // no uploads folder: nothing uploaded
    .filter((d) => d.isFile())
    .map((d) => d.name)
    .sort();
  for (const name of uploaded) inputs.set(name, await readFile(path.join(layout.inputs, name)));
  const named = uploaded.length
    ? []
    : events.flatMap((e) =>
        e.type === 'turn_started' && Array.isArray(e.data.files) ? (e.data.files as string[]) : [],
      );
  for (const name of [...named, ...downloads]) {
    const read = await readInWorkspace(layout.workspace, name, FILE_BYTES).catch(() => undefined); // removed, or outside the workspace: left out of the export
    if (read && read.size <= FILE_BYTES) inputs.set(name, read.data);
  }
  return inputs;
}

export async function inputsZip(inputs: Inputs): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, data] of inputs) zip.file(name, data);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', platform: 'UNIX' });
}
