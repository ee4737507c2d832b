// A worker thread that runs exported functions of modules (the pool's jobs: threadPool.ts): a prebuilt bundle
// (prebuiltModule.ts) is imported as it is; a TypeScript module through tsx, which the thread registers itself on its
// first such job (so it works whether or not the parent was started through tsx: the CLI, vitest, a bench). A thread
// whose jobs are all bundles never loads tsx.
import { parentPort } from 'node:worker_threads';

const modules = new Map();
let tsx;

parentPort.on('message', async ({ id, module, viaTsx, fn, arg }) => {
  try {
    if (viaTsx) await (tsx ??= import('tsx/esm/api').then(({ register }) => register()));
    if (!modules.has(module)) modules.set(module, import(module));
    const value = await (await modules.get(module))[fn](arg);
    parentPort.postMessage({ id, value });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    parentPort.postMessage({ id, error: { name: e.name, message: e.message, stack: e.stack } });
  }
});
