import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { PreviewServer, WorkbookPreviewError } from './previewServer';

const PREVIEW_TIMEOUT_MS = 60_000;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..');

export function sandboxPython(): string {
  const py = process.env.SHEETBENCH_SANDBOX_PYTHON ?? path.join(REPO_ROOT, '.tools/sandbox-py/bin/python');
  if (!existsSync(py)) throw new Error(`sandbox Python not found at ${py}: run \`npm run setup\``);
  return py;
}

let server: PreviewServer | undefined;

/** This process's warm preview server (started on first use). */
export function previewServer(): PreviewServer {
  server ??= new PreviewServer(sandboxPython(), PREVIEW_TIMEOUT_MS);
  return server;
}

/** The official `spreadsheet_content` preview of every sheet (first `rows` rows, pandas formatting). */
export async function spreadsheetPreview(inputPath: string, rows: number, via: PreviewServer = previewServer()): Promise<string> {
  try {
    return await via.preview(inputPath, rows);
  } catch (err) {
    const last = (err as Error).message.trim().split('\n').pop();
    const message = `cannot preview ${path.basename(inputPath)}: ${last}`;
    throw err instanceof WorkbookPreviewError ? new WorkbookPreviewError(message) : new Error(message);
  }
}
