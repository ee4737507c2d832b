import { describe, expect, it } from 'vitest';
import { ARRIVAL_MARGIN_MS, RateWindow, type PermitRequest, type SharedRateLimits } from '../../lib/llm/rateWindow';

const req = (id: string, limits: SharedRateLimits, tokens = 10, leaseMs = 60_000): PermitRequest => ({
  id,
  tokens,
  leaseMs,
  limits,
});

describe("RateWindow: one provider's shared limit", () => {
  it('holds concurrent calls to maxConcurrent until a permit is released', () => {
    const w = new RateWindow();
    const limits = { maxConcurrent: 2 };
    expect(w.take(req('a', limits), 0).granted).toBe(true);
    expect(w.take(req('b', limits), 0).granted).toBe(true);
    expect(w.take(req('c', limits), 0)).toMatchObject({ granted: false });
    w.release('a', 5);
    expect(w.take(req('c', limits), 1).granted).toBe(true);
  });

  it('lets requestsPerMinute requests start per window and says when the next fits', () => {
    const w = new RateWindow();
    const limits = { requestsPerMinute: 2, windowMs: 1_000 };
    w.take(req('a', limits), 0);
    w.release('a');
    w.take(req('b', limits), 400);
    w.release('b');
    const refused = w.take(req('c', limits), 500);
    expect(refused).toEqual({ granted: false, waitMs: 1_000 + ARRIVAL_MARGIN_MS - 500 });
    expect(w.take(req('c', limits), 1_000 + ARRIVAL_MARGIN_MS).granted).toBe(true);
  });

  it('counts tokens per window with the real usage replacing the estimate; a request larger than the allowance goes alone', () => {
    const w = new RateWindow();
    const limits = { tokensPerMinute: 100, windowMs: 1_000 };
    w.take(req('a', limits, 80), 0);
    expect(w.waitMs(req('b', limits, 30), 10)).toBeGreaterThan(0);
    w.release('a', 20); // the call used fewer tokens than estimated
    expect(w.take(req('b', limits, 30), 10).granted).toBe(true);
    const big = new RateWindow();
    expect(big.take(req('x', limits, 500), 0).granted).toBe(true);
    expect(big.waitMs(req('y', limits, 1), 1)).toBe(1_000 + ARRIVAL_MARGIN_MS - 1);
  });

  it('is idempotent per request id and drops the lease of a holder that never released', () => {
    const w = new RateWindow();
    const limits = { maxConcurrent: 1 };
    expect(w.take(req('a', limits, 10, 5_000), 0)).toEqual({ granted: true, grantedAt: 0 });
    expect(w.take(req('a', limits, 10, 5_000), 100)).toEqual({ granted: true, grantedAt: 0 });
    expect(w.take(req('b', limits), 4_999).granted).toBe(false);
    expect(w.take(req('b', limits), 5_000).granted).toBe(true);
  });

  it('is idle once nothing is held and the window has passed, and survives continue-as-new as plain data', () => {
    const w = new RateWindow();
    const limits = { requestsPerMinute: 1, windowMs: 1_000 };
    w.take(req('a', limits), 0);
    w.release('a');
    const carried = new RateWindow(JSON.parse(JSON.stringify(w.snapshot)));
    expect(carried.take(req('b', limits), 10).granted).toBe(false);
    expect(carried.idle(500)).toBe(false);
    expect(carried.idle(1_000 + ARRIVAL_MARGIN_MS)).toBe(true);
  });
});
