import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedData } from './sharedData';

/** The 20 real SpreadsheetBench tasks with their workbooks (../shared/data). */
export const DEV20 = sharedData('spreadsheetbench-dev20');
/** The repo's bundled sample dataset (data/sample). */
export const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/sample');
