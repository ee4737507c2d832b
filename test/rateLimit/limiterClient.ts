/** Child process for limiterProcesses.test.ts: one "host" making LLM calls through the Temporal-held rate limit. */
import { connectClient } from '../../temporal/connection';
import { createProvider } from '../../llm';
import { TemporalRateLimiter } from '../../rateLimit/temporalLimiter';

const [address, namespace, taskQueue, baseUrl, count, limitsJson] = process.argv.slice(2);
const client = await connectClient({ address: address!, namespace: namespace! });
const limiter = new TemporalRateLimiter({ client, taskQueue: taskQueue!, name: 'scripted', limits: JSON.parse(limitsJson!), leaseMs: 60_000 });
const provider = createProvider({ provider: 'openai', baseUrl, apiKey: 'k', requestTimeoutMs: 30_000 }, { sharedLimiter: limiter });
await Promise.all(
  Array.from({ length: Number(count) }, (_, i) =>
    provider.complete({ model: 'scripted', messages: [{ role: 'user', content: `call ${i}` }] }, { callKey: `p${process.pid}/${i}` }),
  ),
);
await client.connection.close();
