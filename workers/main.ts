/**
 * A standalone worker process: `node bin/entry.mjs workers/main.ts` (from its prebuilt bundle). Needs TEMPORAL_ADDRESS (or a config file with
 * temporal.address); serves the main queue and, unless SHEETBENCH_WORKER_RECALC=0, the LibreOffice recalc queue.
 */
import { loadConfig } from '../config/load';
import { tlsOptions } from '../lib/temporal/connection';
import { connectWorkerConnection } from './connection';
import { createWorkers } from './createWorkers';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.temporal.address)
    throw new Error(
      'workers/main.ts needs TEMPORAL_ADDRESS (the CLI `sheetbench worker` can start the embedded server)',
    );
  const connection = await connectWorkerConnection({
    address: config.temporal.address,
    namespace: config.temporal.namespace,
    tls: tlsOptions(config.temporal),
  });
  const workers = await createWorkers(connection, config, {
    main: process.env.SHEETBENCH_WORKER_MAIN !== '0',
    recalc: process.env.SHEETBENCH_WORKER_RECALC !== '0',
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void workers.shutdown());
  process.stdout.write(`worker ready pid=${process.pid}\n`);
  await workers.run();
}

main().catch((err) => {
  process.stderr.write(`worker: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
