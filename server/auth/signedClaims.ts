import type { z } from 'zod';

/** The signed body's claims when it is base64url JSON of the expected shape; undefined otherwise. */
export function signedClaims<S extends z.ZodType>(body: string, schema: S): z.output<S> | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
