/**
 * Runs the analysis task suite (data/analysis) with the scripted reference model on a real Temporal server, the real
 * sandbox and a local data server, one conversation workflow per request and pattern, and prints per-pattern success,
 * steps, tool calls and tokens. Usage: node --import tsx bench/analysis-suite.ts [pattern,pattern,...] [--concurrency N]
 */
import { createReadStream } from 'node:fs';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesDir, loadAnalysisSuite } from '../benchmarks/analysis/dataset';
import { runAnalysisSuite, summariseByPattern } from '../benchmarks/analysis/runSuite';
import { ConversationService } from '../client/conversations';
import { PATTERNS, type Pattern } from '../contracts/conversation';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
(globalThis as { __dirname?: string }).__dirname ??= path.join(REPO, 'test/helpers');
const { startE2E, startInProcessWorkers } = await import('../test/helpers/e2e');
const { referenceAnalyst } = await import('../test/helpers/referenceAnalyst');

const args = process.argv.slice(2);
const concurrency = Number(args[args.indexOf('--concurrency') + 1]) || 4;
const patterns = (args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a))?.split(',') ?? [...PATTERNS]) as Pattern[];

const suite = await loadAnalysisSuite(path.join(REPO, 'data/analysis'));
const data = createServer((req, res) => {
  const name = path.basename(req.url ?? '');
  res.writeHead(200, { 'content-type': 'application/json' });
  createReadStream(path.join(filesDir(suite), name)).on('error', () => res.end()).pipe(res);
});
await new Promise<void>((r) => data.listen(0, '127.0.0.1', r));
const dataUrl = `http://127.0.0.1:${(data.address() as AddressInfo).port}`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-suite-'));
chmodSync(dir, 0o711);
const env = await startE2E(
  { rules: [], fallback: referenceAnalyst(suite.dir, suite.tasks, dataUrl) },
  { config: { recalc: { engine: 'none' }, conversation: { dir }, analysis: { fetch: { allowPrivateAddresses: true } } } },
);
const workers = await startInProcessWorkers(env, { recalc: false });
const running = workers.run();
const started = Date.now();
try {
  const service = new ConversationService({ client: env.client, config: env.config });
  const results = await runAnalysisSuite(suite, { service, client: env.client, patterns, dataUrl, concurrency });
  const failures = results.filter((r) => !r.pass);
  for (const f of failures) process.stdout.write(`FAIL ${f.taskId} (${f.pattern}): ${f.reason}\n`);
  process.stdout.write(`\n${suite.tasks.length} requests × ${patterns.length} patterns, ${((Date.now() - started) / 1000).toFixed(0)} s, concurrency ${concurrency}\n`);
  process.stdout.write('pattern            passed   steps/req  tools/req  tokens/req\n');
  for (const s of summariseByPattern(results)) {
    process.stdout.write(`${s.pattern.padEnd(18)} ${`${s.passed}/${s.total}`.padStart(6)} ${s.steps.toFixed(1).padStart(10)} ${s.toolCalls.toFixed(1).padStart(10)} ${s.tokens.toFixed(0).padStart(11)}\n`);
  }
  const levels = [...new Set(results.map((r) => r.level))].sort();
  process.stdout.write(`by level: ${levels.map((l) => `L${l} ${results.filter((r) => r.level === l && r.pass).length}/${results.filter((r) => r.level === l).length}`).join('  ')}\n`);
} finally {
  await workers.shutdown();
  await running;
  await env.close();
  data.close();
}
