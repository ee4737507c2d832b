import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../lib/runStore/files';
import { ApplicationFailure } from '@temporalio/activity';
import { spreadsheetPreview, warmPreviewServer } from '../../benchmarks/spreadsheetbench/agents/preview';
import { WorkbookPreviewError } from '../../benchmarks/spreadsheetbench/agents/previewServer';
import { PreviewStore, type PreviewQuery } from '../../benchmarks/spreadsheetbench/agents/previewStore';
import { taskKey } from '../../lib/runStore/taskRecord';
import { testCaseFiles } from '../../benchmarks/spreadsheetbench/dataset';
import type { SheetRun } from '../../benchmarks/spreadsheetbench/run';
import { FailureTypes } from '../../lib/failureTypes';

/** The previews of every dataset version this worker has previewed, built once and kept in the user's cache folder. */
let previewStore: PreviewStore | undefined;
const datasetPreviews = () => (previewStore ??= new PreviewStore());

/**
 * The test-case-1 preview, kept in the task's artifact folder; built once per dataset version (PreviewStore: a task's
 * epochs and later runs on the same dataset read it back instead of parsing the workbook again).
 */
export async function cachedPreview(ctx: SheetRun, taskId: string): Promise<string> {
  const file = path.join(ctx.layout.taskDir(taskId), 'preview.txt');
  try {
    return await readFile(file, 'utf8');
  } catch {
    const [first] = await testCaseFiles(ctx.manifest.datasetDir, ctx.task(taskId), 1);
    if (!first) throw new Error(`task ${taskId}: no test case input to preview`);
    const query = previewQuery(ctx, taskId, first.inputPath);
    const text = (await datasetPreviews().get(query)) ?? (await buildPreview(taskId, query));
    await writeFileAtomic(file, text);
    return text;
  }
}

/**
 * Starts this worker's preview server ahead of the task's first model call (pandas takes a few hundred ms to import)
 * unless the task's preview is already built for its dataset version: a worker whose previews are all kept never
 * starts it.
 */
export async function warmPreviewUnlessKept(ctx: SheetRun, taskId: string, inputPath: string): Promise<void> {
  if ((await datasetPreviews().get(previewQuery(ctx, taskId, inputPath))) === undefined) warmPreviewServer();
}

function previewQuery(ctx: SheetRun, taskId: string, inputPath: string): PreviewQuery {
  return {
    datasetVersion: ctx.manifest.datasetVersion,
    taskKey: taskKey(ctx.task(taskId).id),
    inputPath,
    rows: ctx.manifest.agentSettings.previewRows,
  };
}

async function buildPreview(taskId: string, query: PreviewQuery): Promise<string> {
  const text = await spreadsheetPreview(query.inputPath, query.rows).catch((err: unknown) => {
    // A workbook that breaks the preview breaks it on every attempt: fail the task now, naming it (a lost server is retried).
    if (err instanceof WorkbookPreviewError)
      throw ApplicationFailure.nonRetryable(`task ${taskId}: ${err.message}`, FailureTypes.DatasetError);
    throw err;
  });
  // The store only saves work: a preview that cannot be kept (read-only cache folder) is built again next time.
  await datasetPreviews()
    .put(query, text)
    .catch((err: Error) => {
      console.warn(`task ${taskId}: preview not kept in ${datasetPreviews().dir}: ${err.message}`);
    });
  return text;
}
