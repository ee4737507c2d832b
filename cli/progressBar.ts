import type { RunProgress } from '../contracts/run';
import { tokenPartsText } from '../benchmarks/report/tokenParts';

/**
 * One status line: done/total, pass rate so far, tokens (the cached and reasoning ones among them, when reported), spend, elapsed, ETA (live: from the client's clock). With
 * `unpriced` models (no known price, lib/llm/pricing) the spend is unknown, not $0.
 */
export function formatProgress(
  p: RunProgress,
  now = Date.now(),
  width = 24,
  opts: { unpriced?: string[] } = {},
): string {
  const elapsedMs = p.running || p.pending ? Math.max(p.elapsedMs, now - p.startedAtMs) : p.elapsedMs;
  const etaMs = p.done ? (elapsedMs / p.done) * (p.total - p.done) : null;
  const frac = p.total ? p.done / p.total : 1;
  const filled = Math.round(frac * width);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
  const tokens = p.usage.inputTokens + p.usage.outputTokens;
  const parts = [
    `[${bar}] ${p.done}/${p.total}`,
    `running ${p.running}`,
    `soft ${(p.passRateSoft * 100).toFixed(1)}% hard ${(p.passRateHard * 100).toFixed(1)}%`,
    `tokens ${tokens}${tokenPartsText(p.usage)}`,
    costText(p.costUsd, opts.unpriced ?? []),
    `elapsed ${duration(elapsedMs)}`,
    `eta ${etaMs === null ? '?' : duration(etaMs)}`,
  ];
  if (p.failed) parts.push(`failed ${p.failed}`);
  if (p.paused) parts.push(`PAUSED (${p.pauseReason ?? ''})`);
  return parts.join(' | ');
}

function costText(costUsd: number, unpriced: string[]): string {
  if (!unpriced.length) return `$${costUsd.toFixed(4)}`;
  const unknown = `cost unknown for ${unpriced.join(', ')}`;
  return costUsd > 0 ? `$${costUsd.toFixed(4)} + ${unknown}` : unknown;
}

export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s % 60).padStart(2, '0')}s`;
}
