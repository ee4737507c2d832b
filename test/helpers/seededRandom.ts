/** mulberry32 (one home: the statistics' generator), so a chaos schedule can be replayed from its seed. */
import { seededRandom } from '../../benchmarks/report/statistics/random';

export { seededRandom };

export function between(random: () => number, min: number, max: number): number {
  return Math.round(min + random() * (max - min));
}
