/** Child process for limiterProcesses.test.ts: one "host" making LLM calls through the Temporal-held rate limit. */
import { connectClient } from '../../lib/temporal/connection';
import { createProvider } from '../../lib/llm';
import { TemporalRateLimiter } from '../../activities/llm/sharedRateLimit';

const [address, namespace, taskQueue, baseUrl, count, limitsJson] = process.argv.slice(2);
const client = await connectClient({ address: address, namespace: namespace });
const limiter = new TemporalRateLimiter({
  client,
  taskQueue: taskQueue,
  name: 'scripted',
  limits: JSON.parse(limitsJson),
  leaseMs: 60_000,
});
const provider = createProvider(
  { provider: 'openai', baseUrl, apiKey: 'k', requestTimeoutMs: 30_000 },
  { sharedLimiter: limiter },
);
const wallMs = await Promise.all(
  Array.from({ length: Number(count) }, async (_, i) => {
    const started = Date.now();
    await provider.complete(
      { model: 'scripted', messages: [{ role: 'user', content: `call ${i}` }] },
      { callKey: `p${process.pid}/${i}` },
    );
    return Date.now() - started;
  }),
);
// For bench/rate-limit-shared.ts: each call's wall time as this "host" saw it (permit + request + release).
if (process.env.REPORT_CALL_MS) process.stdout.write(`CALL_MS ${JSON.stringify(wallMs)}\n`);
await client.connection.close();
