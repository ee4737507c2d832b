/**
 * Where a v2 task run by checked_vote keeps its one-task SpreadsheetBench run (adapter.ts): `as-spreadsheetbench/<key>`
 * inside the v2 run folder. `/`-joined: the task workflow derives it from its run folder as the payloads name it.
 */
export const ADAPTER_FOLDER = 'as-spreadsheetbench';

export function adapterRunDirOf(runDir: string, taskKey: string): string {
  return `${runDir.replace(/[\\/]+$/, '')}/${ADAPTER_FOLDER}/${taskKey}`;
}
