export { benchmarkRun } from './benchmarkRun';
export { spreadsheetTask } from './spreadsheetTask';
export { llmRateLimit } from './llmRateLimit';
export { dsbenchTask } from './dsbenchTask';
export { conversation } from './conversation';
export { dsbenchRejudge } from './dsbenchRejudge';
export { analysisTask } from './analysisTask';
