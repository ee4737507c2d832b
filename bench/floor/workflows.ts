import { proxyActivities } from '@temporalio/workflow';

const { noop } = proxyActivities<{ noop(): Promise<number> }>({ startToCloseTimeout: '10s' });

/** `n` activities that do nothing, one after another: what is left of a task is the engine's own cost. */
export async function activityChain(n: number): Promise<number> {
  let done = 0;
  for (let i = 0; i < n; i++) done += await noop();
  return done;
}
