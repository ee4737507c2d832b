export { benchmarkRun } from './benchmarkRun';
export { spreadsheetTask } from './spreadsheetTask';
export { dsbenchTask } from './dsbenchTask';
export { dsbenchRejudge } from './dsbenchRejudge';
