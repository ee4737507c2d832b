/**
 * The delay a server asked for, in ms: `retry-after-ms` wins over `Retry-After` (seconds or an HTTP date), as in the
 * openai client. Returns undefined when neither header holds a usable value.
 */
export function retryAfterMsFrom(headers: HeaderSource | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headerValue(headers, 'retry-after-ms'));
  if (headerValue(headers, 'retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headerValue(headers, 'retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}
