import { readFile } from 'node:fs/promises';
import type { z } from 'zod';

/**
 * A kept cache entry read back: its JSON, valid against `schema`, or undefined when it must be made again (missing,
 * unreadable, torn or of another shape). A cache never fails its caller: what it cannot read is recomputed and rewritten.
 */
export async function readCacheEntry<S extends z.ZodType>(file: string, schema: S): Promise<z.infer<S> | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined); // a cache: unreadable is made again
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // a torn or corrupt entry is made again and rewritten
  }
  const entry = schema.safeParse(parsed);
  return entry.success ? entry.data : undefined;
}
