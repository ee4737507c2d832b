/** The shared rate limit's workflow interface: callers ask for a permit by update and give it back by signal. */
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Grant, PermitRequest, RateWindowState } from '../lib/llm/rateWindow';

export const RATE_LIMIT_WORKFLOW = 'llmRateLimit';
/** Failure type of an acquire the workflow refused in its validator (nothing is written to history). */
export const RATE_LIMIT_BUSY = 'RateLimitBusy';

export interface RateLimitWorkflowInput {
  state?: RateWindowState;
  /** The workflow ends after this long with nothing held and nothing in the window (a caller restarts it). */
  idleMs?: number;
}

export const acquirePermitUpdate = defineUpdate<Grant, [PermitRequest]>('acquirePermit');
export const releasePermitSignal = defineSignal<[{ id: string; tokens?: number }]>('releasePermit');

/** One limit per provider: the workflow id names it (`llm-rate-limit/<name>`). */
export function rateLimitWorkflowId(name: string): string {
  return `llm-rate-limit/${name.replace(/[^A-Za-z0-9._:-]+/g, '-')}`;
}
