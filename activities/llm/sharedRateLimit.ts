import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { RateLimiter, RatePermit } from '../../lib/llm/rateLimiter';
import {
  acquirePermitUpdate,
  releasePermitSignal,
  RATE_LIMIT_BUSY,
  RATE_LIMIT_WORKFLOW,
  rateLimitWorkflowId,
  type RateLimitWorkflowInput,
} from '../../contracts/rateLimit';
import type { Grant, PermitRequest, SharedRateLimits } from '../../lib/llm/rateWindow';

export interface TemporalRateLimiterOptions {
  client: Client;
  /** The queue whose workers run the rate-limit workflow (the main queue). */
  taskQueue: string;
  /** The provider this limit belongs to (one workflow per name). */
  name: string;
  limits: SharedRateLimits;
  /** A permit not given back within this is dropped (its holder died). */
  leaseMs: number;
  /** Longest pause between two asks while waiting. */
  maxPollMs?: number;
}

/**
 * A provider's rate limit held by a Temporal workflow, so it holds across worker processes and hosts that share only
 * the Temporal server. Started on first use (or again after it ended idle).
 */
export class TemporalRateLimiter implements RateLimiter {
  private started?: Promise<void>;

  constructor(private readonly opts: TemporalRateLimiterOptions) {}

  async acquire(estimatedTokens: number, signal?: AbortSignal): Promise<RatePermit> {
    const req = { id: randomUUID(), tokens: estimatedTokens, leaseMs: this.opts.leaseMs, limits: this.opts.limits };
    for (;;) {
      signal?.throwIfAborted();
      await (this.started ??= this.start());
      const grant = await this.ask(req);
      if (grant === 'restart') {
        this.started = undefined;
        continue;
      }
      if (grant.granted) return { grantedAt: grant.grantedAt, release: (tokens) => this.release(req.id, tokens) };
      const pause = Math.min(grant.waitMs, this.opts.maxPollMs ?? 1_000) * (0.5 + Math.random() / 2);
      await sleep(pause, undefined, { signal });
    }
  }

  private handle() {
    return this.opts.client.workflow.getHandle(rateLimitWorkflowId(this.opts.name));
  }

  private async ask(req: PermitRequest): Promise<Grant | 'restart'> {
    try {
      return await this.handle().executeUpdate(acquirePermitUpdate, { args: [req] });
    } catch (err) {
      if (
        err instanceof WorkflowUpdateFailedError &&
        err.cause instanceof ApplicationFailure &&
        err.cause.type === RATE_LIMIT_BUSY
      ) {
        return { granted: false, waitMs: Number(err.cause.details?.[0] ?? 200) };
      }
      // The workflow ended while idle (or was never started here): start it again.
      if (err instanceof WorkflowNotFoundError) return 'restart';
      throw err;
    }
  }

  private async release(id: string, tokens?: number): Promise<void> {
    // A lost release only holds the slot until its lease expires.
    await this.handle()
      .signal(releasePermitSignal, { id, tokens })
      .catch(() => undefined);
  }

  private async start(): Promise<void> {
    const input: RateLimitWorkflowInput = {};
    await this.opts.client.workflow.start(RATE_LIMIT_WORKFLOW, {
      workflowId: rateLimitWorkflowId(this.opts.name),
      taskQueue: this.opts.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      staticSummary: `LLM rate limit ${this.opts.name}`,
    });
  }
}
