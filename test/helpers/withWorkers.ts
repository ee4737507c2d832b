import type { Config } from '../../config/schema';
import { connectWorkerConnection } from '../../workers/connection';
import { createWorkers } from '../../workers/createWorkers';

/** In-process workers with `config` until `work` ends (then shut down and awaited). */
export async function withWorkers<T>(config: Config, work: () => Promise<T>): Promise<T> {
  const connection = await connectWorkerConnection({
    address: config.temporal.address!,
    namespace: config.temporal.namespace,
  });
  const workers = await createWorkers(connection, config);
  const running = workers.run();
  try {
    return await work();
  } finally {
    await workers.shutdown();
    await running;
  }
}
