/** Child process for the rate limiter tests: takes permits from a shared limiter and records when it held each. */
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileRateLimiter } from '../../lib/llm/rateLimiter';

const [dir, out, count, holdMs, tokens, maxConcurrent, tokensPerMinute, windowMs] = process.argv.slice(2);
const limiter = new FileRateLimiter({
  dir,
  maxConcurrent: Number(maxConcurrent) || undefined,
  tokensPerMinute: Number(tokensPerMinute) || undefined,
  windowMs: Number(windowMs) || undefined,
});

async function holdOnce(): Promise<{ start: number; end: number; pid: number }> {
  const permit = await limiter.acquire(Number(tokens));
  const start = permit.grantedAt;
  if (Number(holdMs) < 0) {
    process.stdout.write('acquired\n');
    await sleep(600_000); // held until the test kills this process
  }
  await sleep(Number(holdMs));
  const end = Date.now();
  await permit.release(Number(tokens));
  return { start, end, pid: process.pid };
}

const held = await Promise.all(Array.from({ length: Number(count) }, holdOnce));
writeFileSync(out, JSON.stringify(held));
