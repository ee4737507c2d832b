/**
 * Cost of the analysis tools around the sandbox: a trivial python_execute call (prelude + cell + figure capture +
 * manifest check + file listing) against a bare kernel execution of the same cell; save_chart of a 1,000-row frame with
 * its manifest validation; a web_fetch of 1 MB from a local server; a calculator call.
 * Run: node --import tsx bench/analysis-tools.ts [--runs N]
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { disposeConversationTools, runTool, type ToolContext } from '../analysis/tools/index';
import { analysisConfigSchema } from '../config/schema';
import { createSandboxFactory } from '../lib/sandbox/index';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 30;

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `p50 ${pick(0.5).toFixed(2)} ms  p95 ${pick(0.95).toFixed(2)} ms  (n=${samples.length})`;
}

async function sample(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bench-analysis-'));
  chmodSync(root, 0o755);
  const [toolsDir, bareDir] = [join(root, 'tools'), join(root, 'bare')];
  mkdirSync(toolsDir);
  mkdirSync(bareDir);
  const factory = await createSandboxFactory(
    { backend: 'bwrap', executionTimeoutMs: 60_000, memoryMiB: 2048, maxProcesses: 64, dockerImage: '' },
    { warmModules: [] },
  );
  const config = analysisConfigSchema.parse({ fetch: { allowPrivateAddresses: true, perHostPerMinute: 100_000 } });
  const ctx: ToolContext = { conversationId: 'bench', workspaceDir: toolsDir, config, sandboxFactory: factory };
  const bare = await factory.create({ workDir: bareDir });
  const server = createServer((_req, res) => res.end(Buffer.alloc(1024 * 1024, 97)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    await runTool('python_execute', { code: 'import pandas as pd\nx = 1' }, ctx);
    await bare.execute('x = 1');
    console.log(`bare kernel execute 'x + 1'        ${stats(await sample(runs, () => bare.execute('x + 1')))}`);
    console.log(
      `python_execute 'x + 1'             ${stats(await sample(runs, () => runTool('python_execute', { code: 'x + 1' }, ctx)))}`,
    );
    await runTool('python_execute', { code: 'df = pd.DataFrame({"a": range(1000), "b": range(1000)})' }, ctx);
    const chart = await sample(Math.min(runs, 10), () =>
      runTool('python_execute', { code: 'save_chart(df, "line", x="a", y="b", id="c")' }, ctx),
    );
    console.log(`python_execute save_chart 1k rows  ${stats(chart)}`);
    const fetch = await sample(Math.min(runs, 10), () =>
      runTool('web_fetch', { url: `http://127.0.0.1:${port}/x`, type: 'file', filename: 'x.bin' }, ctx),
    );
    console.log(`web_fetch 1 MB to file (loopback)  ${stats(fetch)}`);
    console.log(
      `calculator 'mean([1,2,3]) * 2'    ${stats(await sample(runs, () => runTool('calculator', { expression: 'mean([1,2,3]) * 2' }, ctx)))}`,
    );
  } finally {
    server.close();
    await bare.dispose();
    await disposeConversationTools('bench');
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
