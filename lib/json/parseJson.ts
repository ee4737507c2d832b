import type { z } from 'zod';
import { CorruptFileError } from './fileErrors';

/** At most this many zod issues are named in an error: enough to see the problem, short enough to read. */
const SHOWN_ISSUES = 5;

/** A zod error as one line: `path: message; …`. */
export function describeIssues(error: z.ZodError): string {
  const issues = error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  const more = issues.length > SHOWN_ISSUES ? `; … ${issues.length - SHOWN_ISSUES} more` : '';
  return issues.slice(0, SHOWN_ISSUES).join('; ') + more;
}

/**
 * The text of `file` (or of its line `line`) parsed and checked against `schema`; a CorruptFileError naming the file,
 * the line and the JSON or zod problem when it is not valid JSON or not the expected shape.
 */
export function parseJsonText<S extends z.ZodType>(text: string, schema: S, file: string, line?: number): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CorruptFileError(file, `not valid JSON (${(err as Error).message})`, line);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new CorruptFileError(file, `unexpected content: ${describeIssues(parsed.error)}`, line);
  return parsed.data;
}
