import { existsSync } from 'node:fs';
import path from 'node:path';
import { assertSandboxPython, sandboxPythonPath } from '../../../lib/sandbox/paths';
import { PreviewServer, WorkbookPreviewError } from './previewServer';

const PREVIEW_TIMEOUT_MS = 60_000;
let server: PreviewServer | undefined;

/** This process's warm preview server (started on first use). */
export function previewServer(): PreviewServer {
  if (!server) {
    assertSandboxPython(sandboxPythonPath());
    server = new PreviewServer(sandboxPythonPath(), PREVIEW_TIMEOUT_MS);
  }
  return server;
}

/** Starts this process's preview server ahead of the first preview; without the sandbox Python, that preview will say so. */
export function warmPreviewServer(): void {
  if (existsSync(sandboxPythonPath())) previewServer().warm();
}

/** The official `spreadsheet_content` preview of every sheet (first `rows` rows, pandas formatting). */
export async function spreadsheetPreview(
  inputPath: string,
  rows: number,
  via: PreviewServer = previewServer(),
): Promise<string> {
  try {
    return await via.preview(inputPath, rows);
  } catch (err) {
    const last = (err as Error).message.trim().split('\n').pop();
    const message = `cannot preview ${path.basename(inputPath)}: ${last}`;
    throw err instanceof WorkbookPreviewError ? new WorkbookPreviewError(message) : new Error(message);
  }
}
