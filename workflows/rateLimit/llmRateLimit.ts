import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { RateWindow } from '../../lib/llm/rateWindow';
import {
  acquirePermitUpdate,
  releasePermitSignal,
  RATE_LIMIT_BUSY,
  type RateLimitWorkflowInput,
} from '../../contracts/rateLimit';

/**
 * One LLM provider's rate limit (requests and tokens per minute, concurrent calls) shared by every worker on every
 * host: calls ask this workflow for a permit and give it back when done. A request that does not fit is refused by
 * the update's validator, which leaves no trace in history; the caller waits the time it is told and asks again.
 */
export async function llmRateLimit(input: RateLimitWorkflowInput = {}): Promise<void> {
  const window = new RateWindow(input.state);
  let lastUse = Date.now();
  setHandler(
    acquirePermitUpdate,
    (req) => {
      lastUse = Date.now();
      return window.take(req, Date.now());
    },
    {
      validator: (req) => {
        const waitMs = window.waitMs(req, Date.now());
        if (waitMs > 0)
          throw ApplicationFailure.create({
            message: `rate limit: wait ${waitMs} ms`,
            type: RATE_LIMIT_BUSY,
            details: [waitMs],
          });
      },
    },
  );
  setHandler(releasePermitSignal, ({ id, tokens }) => {
    lastUse = Date.now();
    window.release(id, tokens);
  });
  const idleMs = input.idleMs ?? 10 * 60_000;
  for (;;) {
    await condition(() => workflowInfo().continueAsNewSuggested, '1 minute');
    if (workflowInfo().continueAsNewSuggested) break;
    if (window.idle(Date.now()) && Date.now() - lastUse >= idleMs) return;
  }
  await condition(allHandlersFinished);
  await continueAsNew<typeof llmRateLimit>({ state: window.snapshot, idleMs });
}
