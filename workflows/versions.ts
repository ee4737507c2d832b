/**
 * The current generation of each workflow whose commands changed over time, as a patch id. Such a workflow's first
 * statement is `if (!patched(CURRENT.x)) return xLegacy(input)`: a new execution records the marker and runs the current
 * code, straight through; a history recorded before has no marker and replays on the frozen legacy copy (`legacy/`
 * beside the workflow), which keeps the patches of its time. When and how a legacy copy retires: workflows/VERSIONS.md.
 *
 * The DSBench rejudge and rate-limit workflows have never changed their commands: they have no marker.
 */
export const CURRENT = {
  benchmarkRun: 'benchmark-run-v10',
  spreadsheetTask: 'spreadsheet-task-v8',
  dsbenchTask: 'dsbench-task-v4',
  analysisTask: 'analysis-task-v4',
  conversation: 'conversation-v3',
  spreadsheetBench2Task: 'sb2-task-v2',
} as const;

/**
 * What a workflow whose legacy copy has retired does with a history recorded before its marker: its workflow task
 * fails, naming the patch id the history lacks (a replay reports it; a running execution waits for a worker that can).
 */
export function retiredHistory(patchId: string): Error {
  return new Error(
    `this history was recorded before patch '${patchId}' and the code that replays it has retired (workflows/VERSIONS.md): ` +
      'replay it with a sheetbench release from before the retirement',
  );
}
