import { ConversationError } from '../conversation/errors';
import type { ConversationEvent } from '../conversation/events';
import type { ConversationLayout } from '../conversation/layout';
import { helperSource } from '../tools/pythonPrelude';
import { readInWorkspace } from '../workspace/safeFiles';
import { exportCells } from './cells';
import { collectInputs, inputsZip } from './inputs';
import { notebookJson } from './notebook';
import { scriptText } from './script';
import { exportTurns, fetchedFiles } from './turns';

export const EXPORT_FORMATS = ['ipynb', 'py', 'inputs'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportFile {
  filename: string;
  contentType: string;
  body: Buffer;
}

const TYPES: Record<ExportFormat, string> = {
  ipynb: 'application/x-ipynb+json',
  py: 'text/x-python; charset=utf-8',
  inputs: 'application/zip',
};
/** Tables and images a notebook embeds are read up to this size. */
const OUTPUT_BYTES = 5 * 1024 * 1024;

/**
 * A conversation, or one of its turns, as a Jupyter notebook, a Python script, or the zip of the inputs both read (by
 * their workspace names). A conversation whose code never ran cleanly has nothing to export: that is said, not written.
 */
export async function exportConversation(
  layout: ConversationLayout,
  info: { id: string; title: string },
  events: ConversationEvent[],
  opts: { format: ExportFormat; turnId?: string; now?: Date },
): Promise<ExportFile> {
  const turns = await exportTurns(layout, events);
  if (opts.turnId && !turns.some((t) => t.turnId === opts.turnId)) {
    const running = events.some((e) => e.type === 'turn_started' && e.turnId === opts.turnId);
    throw new ConversationError(
      'not_found',
      running
        ? `turn ${opts.turnId} of conversation ${info.id} has not ended yet: export it once it has`
        : `conversation ${info.id} has no turn ${opts.turnId}`,
    );
  }
  const upTo = opts.turnId ? turns.slice(0, turns.findIndex((t) => t.turnId === opts.turnId) + 1) : turns;
  const inputs = await collectInputs(layout, events, fetchedFiles(upTo));
  const base = opts.turnId ? `${info.id}-${opts.turnId}` : info.id;
  if (opts.format === 'inputs') {
    if (!inputs.size)
      throw new ConversationError(
        'empty',
        `conversation ${info.id} has no uploaded or downloaded files: there are no inputs to export`,
      );
    return { filename: `${info.id}-inputs.zip`, contentType: TYPES.inputs, body: await inputsZip(inputs) };
  }
  const exported = opts.turnId ? upTo.slice(-1) : upTo;
  const ran = exported.flatMap((t) => t.items).filter((i) => i.kind === 'python').length;
  if (!ran) {
    const failed = exported.reduce((n, t) => n + t.failed, 0);
    const what = opts.turnId ? `turn ${opts.turnId} of conversation ${info.id}` : `conversation ${info.id}`;
    throw new ConversationError(
      'empty',
      `${what} has no Python code that ran successfully${failed ? ` (${failed} execution(s) failed)` : ''}: a notebook would have nothing to run. The conversation itself is unchanged.`,
    );
  }
  const cells = exportCells(turns, {
    title: info.title,
    conversationId: info.id,
    inputs: [...inputs.keys()],
    inputsZip: `${info.id}-inputs.zip`,
    turnId: opts.turnId,
    helperSource,
  });
  if (opts.format === 'py')
    return { filename: `${base}.py`, contentType: TYPES.py, body: Buffer.from(scriptText(cells)) };
  const read = async (rel: string) =>
    (await readInWorkspace(layout.workspace, rel, OUTPUT_BYTES).catch(() => undefined))?.data; // removed, or outside the workspace: left out of the export
  const notebook = await notebookJson(
    cells,
    { conversationId: info.id, turnId: opts.turnId, exportedAt: (opts.now ?? new Date()).toISOString() },
    read,
  );
  return {
    filename: `${base}.ipynb`,
    contentType: TYPES.ipynb,
    body: Buffer.from(`${JSON.stringify(notebook, null, 1)}\n`),
  };
}
