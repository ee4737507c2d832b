/**
 * Evidence that only adds to a check's feedback (the input's region, cells changed elsewhere, a formula's reference
 * notes) must not fail the check when it cannot be read; what could not be read, and why, goes into the check's record
 * instead of vanishing.
 */
export class MissingEvidence {
  readonly reasons: string[] = [];

  /** A `.catch` handler: notes `what` could not be read and why, and gives `fallback` in its place. */
  or<T>(what: string, fallback: T): (error: unknown) => T {
    return (error) => {
      this.reasons.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      return fallback;
    };
  }
}
