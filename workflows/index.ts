export { benchmarkRun } from './benchmarkRun';
export { spreadsheetTask } from './spreadsheetTask';
export { conversation } from './conversation';
