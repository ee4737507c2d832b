export { benchmarkRun } from './run/benchmarkRun';
export { spreadsheetTask } from './spreadsheetbench/spreadsheetTask';
export { llmRateLimit } from './rateLimit/llmRateLimit';
export { dsbenchTask } from './dsbench/dsbenchTask';
export { conversation } from './analysis/conversation';
export { dsbenchRejudge } from './dsbench/dsbenchRejudge';
export { analysisTask } from './analysis/analysisTask';
export { spreadsheetBench2Task } from './spreadsheetbench2/spreadsheetBench2Task';
