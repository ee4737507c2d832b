/** Statistics of benchmark runs: task-clustered intervals, paired differences, McNemar's exact test, pass@k and pass^k. */
export { clusteredMean, pairedDifference, type Interval, type BootstrapOptions } from './bootstrap';
export { mcnemarExactP } from './mcnemar';
export { passAtK, passHatK } from './passAtK';
export { seededRandom } from './random';
