/** Sliding one-minute window of request times per host (worker-local). */
export class PerHostRateLimiter {
  private readonly recent = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a request to `host`, or returns the seconds to wait when `perMinute` were already made in the last minute. */
  take(host: string, perMinute: number): { ok: true } | { ok: false; waitSeconds: number } {
    const now = this.now();
    const times = (this.recent.get(host) ?? []).filter((t) => now - t < 60_000);
    if (times.length >= perMinute) {
      this.recent.set(host, times);
      return { ok: false, waitSeconds: Math.ceil((60_000 - (now - times[0])) / 1000) };
    }
    times.push(now);
    this.recent.set(host, times);
    return { ok: true };
  }
}
