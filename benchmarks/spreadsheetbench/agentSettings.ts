/**
 * The SpreadsheetBench settings (`--agent`), each with the `<setting>` part of the official output folder name. The
 * task workflow's agents (workflows/spreadsheetbench/agents/) are keyed by the same names, checked by the type.
 */
export const OUTPUT_SETTINGS = {
  single: 'single',
  row_exec: 'multi_row_exec',
  react_exec: 'multi_react_exec',
  row_react_exec: 'multi_row_react_exec',
  sheetcopilot: 'sheetcopilot',
  /** Ours, not a paper setting (agents/checkedVote/). */
  checked_vote: 'checked_vote',
} as const;

export type SpreadsheetAgent = keyof typeof OUTPUT_SETTINGS;

export const SPREADSHEET_AGENTS = Object.keys(OUTPUT_SETTINGS) as SpreadsheetAgent[];

export function isSpreadsheetAgent(name: string): name is SpreadsheetAgent {
  return Object.hasOwn(OUTPUT_SETTINGS, name);
}
