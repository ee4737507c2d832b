/** Recalculation: open a workbook in a real spreadsheet engine, recompute every formula, store cached values. */

export type RecalcEngine = 'libreoffice' | 'excel';

export interface RecalcResult {
  ok: boolean;
  engine: RecalcEngine;
  durationMs: number;
  /** Why it failed (timeout, load error, engine crash). */
  error?: string;
  /** The workbook had no formula and was copied unchanged instead of going through the engine. */
  copied?: boolean;
  /**
   * LibreOffice: how the output was written. `results`: the input with each formula cell's result written in (the
   * rest of the file unchanged); `store`: the recalculated document stored by LibreOffice, with `storedBecause` saying
   * why the results could not be written exactly as that store would write them.
   */
  written?: 'results' | 'store';
  storedBecause?: string;
}

export interface Recalculator {
  readonly engine: RecalcEngine;
  /** Recalculate `inputPath` and write the result to `outputPath` (may be the same path). */
  recalc(inputPath: string, outputPath: string, opts?: { timeoutMs?: number }): Promise<RecalcResult>;
  close(): Promise<void>;
}
