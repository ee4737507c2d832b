import type { z } from 'zod';
import { CorruptFileError } from './fileErrors';
import { parseJsonText } from './parseJson';

export interface JsonLines<T> {
  values: T[];
  /** Complete lines (ending in a newline) that are not valid JSON or not the expected shape, each naming its line. */
  corrupt: CorruptFileError[];
}

/**
 * A JSON-lines file's records, each checked against `schema`. A last line without its newline is a write still under
 * way (or cut off by a killed writer) and is left out without complaint; any complete line that does not parse is
 * returned in `corrupt` with its 1-based line number, for the caller to report or throw.
 */
export function parseJsonLines<S extends z.ZodType>(text: string, schema: S, file: string): JsonLines<z.output<S>> {
  // What follows the last newline is '' for a whole file, or the torn tail of a write under way: never a record.
  const complete = text.split('\n').slice(0, -1);
  const values: z.output<S>[] = [];
  const corrupt: CorruptFileError[] = [];
  complete.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      values.push(parseJsonText(line, schema, file, i + 1));
    } catch (err) {
      if (!(err instanceof CorruptFileError)) throw err;
      corrupt.push(err);
    }
  });
  return { values, corrupt };
}
