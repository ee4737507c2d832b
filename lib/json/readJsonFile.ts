import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { MissingFileError } from './fileErrors';
import { parseJsonText } from './parseJson';

/** What reading a JSON file found: nothing there, or a value that matched its schema. Corrupt files throw. */
export type JsonFileRead<T> = { kind: 'missing' } | { kind: 'ok'; value: T };

/**
 * Reads `file` and checks it against `schema`. A missing file (ENOENT, ENOTDIR) is `{ kind: 'missing' }`; a file that exists
 * but is not valid JSON or does not match throws a CorruptFileError naming the file and the problem; any other
 * read error (permissions, a folder in its place) is thrown as it is. Corrupt is never reported as missing.
 */
export async function readJsonFile<S extends z.ZodType>(file: string, schema: S): Promise<JsonFileRead<z.output<S>>> {
  const text = await readTextIfPresent(file);
  if (text === undefined) return { kind: 'missing' };
  return { kind: 'ok', value: parseJsonText(text, schema, file) };
}

/** The checked value of `file`, or undefined when there is no such file; corrupt content throws (readJsonFile). */
export async function readJsonIfPresent<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<z.output<S> | undefined> {
  const read = await readJsonFile(file, schema);
  return read.kind === 'ok' ? read.value : undefined;
}

/** The checked value of a file that must exist: missing is an error naming the file, as corrupt is. */
export async function readRequiredJson<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>> {
  const read = await readJsonFile(file, schema);
  if (read.kind === 'missing') throw new MissingFileError(file);
  return read.value;
}

/**
 * The file's text, or undefined when it does not exist (nothing there, or a file where a folder on its path should be).
 * One synchronous read: the promise API's open, stat, read and close are four thread-pool round trips, more CPU than
 * reading a record of a few KiB from the page cache (issue 33 §2).
 */
export async function readTextIfPresent(file: string): Promise<string | undefined> {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}
