/**
 * A file that exists but cannot be trusted: not valid JSON, or not the shape its schema expects. It names the file
 * (and the line of a JSON-lines file) so the person reading the error knows what to look at; it is never a "missing"
 * file, which readers report separately.
 */
export class CorruptFileError extends Error {
  override readonly name = 'CorruptFileError';

  constructor(
    readonly file: string,
    readonly reason: string,
    readonly line?: number,
  ) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${reason}`);
  }
}

export function isCorruptFileError(err: unknown): err is CorruptFileError {
  return err instanceof CorruptFileError;
}

/** A file that must exist (a run's tasks.json, a question's answer) is not there. */
export class MissingFileError extends Error {
  override readonly name = 'MissingFileError';

  constructor(readonly file: string) {
    super(`${file}: file is missing`);
  }
}
