/**
 * How soon the work of a dead worker (kill -9, a lost machine) moves to another: carried in a workflow's input from the
 * config's `temporal.failover`, passed on to the workflows it starts. Absent (every run started before it existed, and
 * any config that does not set it): the timeouts written in the workflows, as before.
 */
export interface Failover {
  /** Every activity's heartbeat timeout is at most this (a longer one written in the workflow is cut to it). */
  heartbeatTimeoutMs?: number;
  /** The workflow task timeout of the workflows started (Temporal's default: 10 s). */
  workflowTaskTimeoutMs?: number;
}
