import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../lib/runStore/files';
import { ApplicationFailure } from '@temporalio/activity';
import { spreadsheetPreview } from '../../benchmarks/spreadsheetbench/agents/preview';
import { WorkbookPreviewError } from '../../benchmarks/spreadsheetbench/agents/previewServer';
import { testCaseFiles } from '../../benchmarks/spreadsheetbench/dataset';
import type { SheetRun } from '../../benchmarks/spreadsheetbench/run';
import { FailureTypes } from '../../lib/failureTypes';

/** The test-case-1 preview, computed once per task and kept in the task's artifact folder. */
export async function cachedPreview(ctx: SheetRun, taskId: string): Promise<string> {
  const file = path.join(ctx.layout.taskDir(taskId), 'preview.txt');
  try {
    return await readFile(file, 'utf8');
  } catch {
    const [first] = await testCaseFiles(ctx.manifest.datasetDir, ctx.task(taskId), 1);
    if (!first) throw new Error(`task ${taskId}: no test case input to preview`);
    const text = await spreadsheetPreview(first.inputPath, ctx.manifest.agentSettings.previewRows).catch(
      (err: unknown) => {
        // A workbook that breaks the preview breaks it on every attempt: fail the task now, naming it (a lost server is retried).
        if (err instanceof WorkbookPreviewError)
          throw ApplicationFailure.nonRetryable(`task ${taskId}: ${err.message}`, FailureTypes.DatasetError);
        throw err;
      },
    );
    await writeFileAtomic(file, text);
    return text;
  }
}
