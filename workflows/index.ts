export { benchmarkRun } from './benchmarkRun';
export { spreadsheetTask } from './spreadsheetTask';
export { llmRateLimit } from './llmRateLimit';
