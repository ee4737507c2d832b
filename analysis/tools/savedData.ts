import { tableHoldsValue } from '../grounding/computedAnswer';
import { noValueHint } from '../grounding/noValueHint';
import type { VisualizationOutput } from '../manifest/schema';
import { readInWorkspace } from '../workspace/safeFiles';

/** Lines of a saved data file shown back to the model (its header and first rows). */
const PREVIEW_LINES = 6;
/** Bytes read of a data file for its preview. */
const PREVIEW_BYTES = 1_000;
/** Data files previewed in one result. */
const MAX_PREVIEWS = 3;

export const NO_VALUE_NOTE = 'it holds no value (every cell is empty or NaN): nothing was computed into it';

/**
 * The first lines of the data files (tables, charts) this execution wrote, each under its workspace path: what the model
 * saved, in its result. Before, it read back only save_table's manifest entry, so a table holding only NaN (the 1.5B's
 * a15: `index,price` / `59,` from a rolling mean over one row) looked like a result. A file holding no value says so.
 * One string (the text protocol shows it as lines under its key); none when the execution wrote no data file.
 */
export async function savedDataPreview(
  workspaceDir: string,
  outputs: VisualizationOutput[] | undefined,
  written: string[],
  code: string,
): Promise<string | undefined> {
  const files = (outputs ?? [])
    .flatMap((o) => ('dataFile' in o && typeof o.dataFile === 'string' ? [o.dataFile] : []))
    .filter((f, i, all) => written.includes(f) && all.indexOf(f) === i)
    .slice(0, MAX_PREVIEWS);
  const previews: string[] = [];
  for (const file of files) {
    const head = await readHead(workspaceDir, file);
    if (head !== undefined) previews.push(`${file}:\n${tableHoldsValue(head) ? head : `${head}\n(${noValue(code)})`}`);
  }
  return previews.length ? `${previews.join('\n\n')}\n` : undefined;
}

/** The head of a data file; none when it cannot be read (gone, a symlink, outside the workspace: the sandbox wrote it). */
function noValue(code: string): string {
  const why = noValueHint(code);
  return why ? `${NO_VALUE_NOTE}; ${why}` : NO_VALUE_NOTE;
}

async function readHead(workspaceDir: string, file: string): Promise<string | undefined> {
  const read = await readInWorkspace(workspaceDir, file, PREVIEW_BYTES).catch(() => undefined);
  if (!read) return undefined;
  const lines = read.data.toString('utf8').split(/\r?\n/);
  const shown = lines.slice(0, PREVIEW_LINES).join('\n').trimEnd();
  return lines.length > PREVIEW_LINES + 1 || read.size > PREVIEW_BYTES ? `${shown}\n…` : shown;
}
