import type { RateLimiter } from './rateLimiter';
import { estimateMessageTokens } from './tokenEstimate';
import type { ChatRequest, ChatResponse, CompleteOptions, LlmProvider } from './types';

/** Assumed reply size when the request sets no max_tokens. */
const DEFAULT_REPLY_ESTIMATE = 1024;

/** Holds a rate-limit permit around each call; the window is charged the real usage afterwards (0 if it failed). */
export class RateLimitedProvider implements LlmProvider {
  readonly name: string;

  constructor(
    private readonly inner: LlmProvider,
    private readonly limiter: RateLimiter,
  ) {
    this.name = inner.name;
  }

  async complete(request: ChatRequest, opts: CompleteOptions = {}): Promise<ChatResponse> {
    const estimate = estimateMessageTokens(request.messages) + (request.maxTokens ?? DEFAULT_REPLY_ESTIMATE);
    const permit = await this.limiter.acquire(estimate, opts.signal);
    let actual = 0;
    try {
      const response = await this.inner.complete(request, opts);
      actual = response.usage.inputTokens + response.usage.outputTokens;
      return response;
    } finally {
      // Not awaited: the reply goes on to its cache entry first (a release waits for a file lock, or for a Temporal
      // signal with the shared limit). A release that fails holds the slot only until its lease expires.
      permit
        .release(actual)
        .catch((err: unknown) =>
          process.stderr.write(
            `rate limit: releasing a permit failed (its slot is held until the lease expires): ${err instanceof Error ? err.message : String(err)}\n`,
          ),
        );
    }
  }
}
