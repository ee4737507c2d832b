// The rows of the run page's by-type table, from the run's metrics (pure: the page and the unit tests use it).
/** @import { GroupMetrics, RunMetrics } from '../../benchmarks/report/comparison' */

/**
 * The by-type table's rows: each group, then the run without its known-bad tasks when it has any (how many tasks that
 * leaves, and their scores).
 * @param {RunMetrics} m
 * @returns {(GroupMetrics & { excluded?: boolean })[]}
 */
export function byTypeRows(m) {
  const without = m.withoutExcluded;
  return [
    ...m.byGroup,
    ...(without
      ? [
          {
            group: `without ${without.tasks.length} known-bad tasks`,
            tasks: m.tasks - without.tasks.length,
            soft: without.soft,
            hard: without.hard,
            excluded: true,
          },
        ]
      : []),
  ];
}
