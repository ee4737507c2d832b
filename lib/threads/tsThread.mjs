// A worker thread that runs exported functions of TypeScript modules (the pool's jobs: threadPool.ts). Plain .mjs:
// it registers tsx itself, so it works whether or not the parent was started through tsx (the CLI, vitest, a bench).
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const modules = new Map();

parentPort.on('message', async ({ id, module, fn, arg }) => {
  try {
    if (!modules.has(module)) modules.set(module, import(module));
    const value = await (await modules.get(module))[fn](arg);
    parentPort.postMessage({ id, value });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    parentPort.postMessage({ id, error: { name: e.name, message: e.message, stack: e.stack } });
  }
});
