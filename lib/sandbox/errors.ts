/** The sandbox itself failed (could not start, vanished, protocol broke): retryable, unlike a failure of the user's code. */
export class SandboxLostError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SandboxLostError';
  }
}

/** No backend can run here (or the requested one is not available). */
export class SandboxUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxUnavailableError';
  }
}

/** The caller aborted an execution through its AbortSignal; the code was killed and the kernel state is gone. */
export class SandboxAbortedError extends Error {
  constructor(reason: unknown) {
    super(`execution aborted${reason instanceof Error ? `: ${reason.message}` : reason ? `: ${String(reason)}` : ''}`);
    this.name = 'AbortError';
  }
}

/** The sandbox cannot start here for a reason set-up or a permission fixes: the message names the path and the fix. */
export class SandboxSetupError extends SandboxUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxSetupError';
  }
}
