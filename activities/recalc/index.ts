import { rename, rm, access } from 'node:fs/promises';
import { ApplicationFailure } from '@temporalio/activity';
import { withHeartbeat } from '../heartbeat';
import type { Recalculator } from '../../lib/recalc/types';

export interface RecalcWorkbookInput {
  path: string;
  timeoutMs?: number;
}

export interface RecalcWorkbookResult {
  ok: boolean;
  engine: string;
  durationMs: number;
  error?: string;
}

export interface RecalcWorkbooksInput {
  paths: string[];
  timeoutMs?: number;
}

/** Activities of the recalc task queue (LibreOffice on Linux, Excel on the Windows worker). */
export function recalcActivities(recalculator: () => Promise<Recalculator>) {
  return {
    /** Recalculates a workbook in place (written beside, then renamed), so a retry always starts from a whole file. */
    recalcWorkbook: (input: RecalcWorkbookInput) => recalcInPlace(recalculator, input),
    /**
     * A task's outputs one after another in one activity (one task-queue round trip instead of one per output). A
     * retry recalculates them all again: recalculating a recalculated workbook gives the same values.
     */
    async recalcWorkbooks(input: RecalcWorkbooksInput): Promise<RecalcWorkbookResult[]> {
      const results: RecalcWorkbookResult[] = [];
      for (const path of input.paths)
        results.push(await recalcInPlace(recalculator, { path, timeoutMs: input.timeoutMs }));
      return results;
    },
  };
}

async function recalcInPlace(
  recalculator: () => Promise<Recalculator>,
  input: RecalcWorkbookInput,
): Promise<RecalcWorkbookResult> {
  try {
    await access(input.path);
  } catch {
    return { ok: false, engine: 'none', durationMs: 0, error: `no workbook at ${input.path}` };
  }
  const engine = await recalculator();
  const tmp = `${input.path}.recalc.xlsx`;
  const result = await withHeartbeat(() => engine.recalc(input.path, tmp, { timeoutMs: input.timeoutMs }));
  if (!result.ok) {
    await rm(tmp, { force: true });
    // A workbook the engine cannot open is a verdict matter (scored as it is), not an infrastructure failure.
    if (/timeout|crash|died|restart/i.test(result.error ?? '')) {
      throw ApplicationFailure.retryable(`recalculation of ${input.path} failed: ${result.error}`, 'RecalcFailed');
    }
    return { ok: false, engine: result.engine, durationMs: result.durationMs, error: result.error };
  }
  await rename(tmp, input.path);
  return { ok: true, engine: result.engine, durationMs: result.durationMs };
}

export type RecalcActivities = ReturnType<typeof recalcActivities>;
