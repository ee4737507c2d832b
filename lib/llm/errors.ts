import type { LlmFailureClass } from './types';

/** A failure the LLM layer detected itself (malformed reply, missing local runtime, prompt too long for the context). */
export class LlmError extends Error {
  readonly class: LlmFailureClass;
  /** Overrides the class's default retryability when set. */
  readonly retryable?: boolean;
  readonly status?: number;

  constructor(
    failureClass: LlmFailureClass,
    message: string,
    opts: { retryable?: boolean; status?: number; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'LlmError';
    this.class = failureClass;
    this.retryable = opts.retryable;
    this.status = opts.status;
  }
}
