import type { Page } from 'playwright-core';

/**
 * What a page's conversation event streams did (each request to /events, its response or failure) and the test's own
 * steps, in order with their times: a test of the stream prints it when it fails, so a CI failure says where it stood.
 */
export class EventStreamLog {
  private readonly t0 = Date.now();
  private readonly lines: Array<{ ms: number; what: string }> = [];

  constructor(
    page: Page,
    private readonly baseUrl: string,
  ) {
    page.on('request', (r) => this.stream('request', r.url()));
    page.on('requestfailed', (r) => this.stream(`failed (${r.failure()?.errorText})`, r.url()));
    page.on('response', (r) => this.stream(`response ${r.status()}`, r.url()));
  }

  /** A step of the test (e.g. 'server stopped'); returns its time since the log began. */
  mark(step: string): number {
    return this.add(`-- ${step}`);
  }

  /** The time of the first step named `step`, since the log began. */
  timeOf(step: string): number | undefined {
    return this.lines.find((l) => l.what === `-- ${step}`)?.ms;
  }

  /** Stream lines after the step `since` whose text contains `text` (e.g. refused reconnects while the server is away). */
  after(since: string, text: string): Array<{ ms: number; what: string }> {
    const from = this.timeOf(since) ?? Infinity;
    return this.lines.filter((l) => l.ms >= from && !l.what.startsWith('-- ') && l.what.includes(text));
  }

  toString(): string {
    return this.lines.map((l) => `+${l.ms} ms ${l.what}`).join('\n');
  }

  private stream(what: string, url: string): void {
    if (url.includes('/events')) this.add(`${what} ${url.replace(this.baseUrl, '')}`);
  }

  private add(what: string): number {
    const ms = Date.now() - this.t0;
    this.lines.push({ ms, what });
    return ms;
  }
}
