export { benchmarkRun } from './benchmarkRun';
export { spreadsheetTask } from './spreadsheetTask';
export { conversation } from './conversation';
export { dsbenchTask } from './dsbenchTask';
export { dsbenchRejudge } from './dsbenchRejudge';
export { analysisTask } from './analysisTask';
