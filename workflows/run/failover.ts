import { proxyActivities, type ActivityInterfaceFor, type ActivityOptions } from '@temporalio/workflow';
import { msToNumber } from '@temporalio/common/lib/time';
import type { Failover } from '../../contracts/failover';

/**
 * This execution's failover settings, from its input (`useFailover` at the top of every workflow). Module state is the
 * execution's own: Temporal's workflow sandbox evaluates the workflow modules once per execution (as `batchedCall.ts`'s
 * `replied`), and a replay sets it again from the same input before any activity is scheduled.
 */
let current: Failover | undefined;

/** Takes the execution's failover settings (absent: the timeouts written in the workflows, as before). */
export function useFailover(failover: Failover | undefined): void {
  current = failover;
}

/** `options` with its heartbeat timeout cut to the execution's cap (options without a heartbeat timeout unchanged). */
export function withFailover(options: ActivityOptions, failover = current): ActivityOptions {
  const cap = failover?.heartbeatTimeoutMs;
  if (cap === undefined || options.heartbeatTimeout === undefined) return options;
  return { ...options, heartbeatTimeout: Math.min(msToNumber(options.heartbeatTimeout), cap) };
}

/**
 * `proxyActivities(options)` whose heartbeat timeout follows the execution's failover settings: the options are looked
 * at when an activity is scheduled, not when the module is loaded (before the workflow has read its input).
 */
export function proxyFailoverActivities<A extends object>(options: ActivityOptions): ActivityInterfaceFor<A> {
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get(_, activityType) {
      if (typeof activityType !== 'string')
        throw new TypeError(`activity type must be a string: ${String(activityType)}`);
      return (...args: unknown[]) =>
        (proxyActivities(withFailover(options)) as Record<string, (...a: unknown[]) => Promise<unknown>>)[activityType](
          ...args,
        );
    },
  });
}

/** The workflow task timeout for the workflows this execution starts (none set: Temporal's default). */
export function childFailoverOptions(): { workflowTaskTimeout?: number } {
  const ms = current?.workflowTaskTimeoutMs;
  return ms === undefined ? {} : { workflowTaskTimeout: ms };
}
