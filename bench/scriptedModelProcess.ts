/**
 * The scripted model in a process of its own, so the benches can book its CPU as `model`, apart from the harness.
 * Started by `startModelProcess` (bench/modelProcess.ts); prints its base URL on the first stdout line and serves
 * until SIGTERM.
 *
 *   node --import tsx bench/scriptedModelProcess.ts --script copy-input|dev20 --latency 2000 --log FILE
 */
import { parseArgs } from 'node:util';
import { startScriptedServer, type Script } from '../lib/scriptedLlm';
import { copyInputReply } from '../test/helpers/copyInput';
import { DEV20_SOLUTIONS } from '../test/helpers/scriptedSolutions';

const { values: args } = parseArgs({
  options: {
    script: { type: 'string', default: 'copy-input' },
    latency: { type: 'string', default: '0' },
    log: { type: 'string' },
  },
});

/** The scripts the benches use (their replies are functions, so they are named here rather than sent as JSON). */
const SCRIPTS: Record<string, (latencyMs: number) => Script> = {
  'copy-input': (latencyMs) => ({ rules: [], fallback: copyInputReply, latencyMs }),
  dev20: (latencyMs) => ({ rules: Object.values(DEV20_SOLUTIONS), fallback: copyInputReply, latencyMs }),
};

async function main(): Promise<void> {
  const script = SCRIPTS[args.script];
  if (!script) throw new Error(`unknown script "${args.script}" (known: ${Object.keys(SCRIPTS).join(', ')})`);
  const server = await startScriptedServer({ script: script(Number(args.latency)), logFile: args.log });
  process.stdout.write(`${server.url}\n`);
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  await server.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
