import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PrebuiltModule, ThreadEntry } from './prebuiltModule';

const THREAD_ENTRY = new URL('./tsThread.mjs', import.meta.url);

interface Job {
  id: number;
  module: ThreadEntry;
  fn: string;
  arg: unknown;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Reply {
  id: number;
  value?: unknown;
  error?: { name: string; message: string; stack?: string };
}

/**
 * CPU-heavy work off the event loop: runs `fn(arg)` exported by a TypeScript module in one of `size` worker threads
 * (started on first use; idle ones never keep the process alive). A module given as a PrebuiltModule is loaded from
 * its prebuilt bundle while that is fresh (a thread that needs no TypeScript never loads tsx); one given as a URL
 * through tsx. Arguments and results are structured-cloned; an error comes back as an Error with the thread's name,
 * message and stack. A thread that dies fails its job and is replaced by the next job.
 */
export class ThreadPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private nextId = 0;
  private started = 0;

  constructor(readonly size: number = defaultThreads()) {}

  async run<T>(module: URL | PrebuiltModule, fn: string, arg: unknown): Promise<T> {
    const entry = module instanceof URL ? { href: module.href, viaTsx: true } : await module.entry();
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        id: ++this.nextId,
        module: entry,
        fn,
        arg,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  /** Ends every thread (jobs in flight fail). */
  async close(): Promise<void> {
    const all = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.start() : undefined);
      if (!worker) return;
      const job = this.queue.shift()!;
      this.busy.set(worker, job);
      worker.ref();
      const { id, module, fn, arg } = job;
      worker.postMessage({ id, module: module.href, viaTsx: module.viaTsx, fn, arg });
    }
  }

  private start(): Worker {
    this.started++;
    const worker = new Worker(THREAD_ENTRY, { execArgv: [] });
    worker.on('message', (reply: Reply) => this.settle(worker, reply));
    worker.on('error', (err) => this.lose(worker, err));
    worker.on('exit', (code) => this.lose(worker, new Error(`worker thread exited (code ${code})`)));
    return worker;
  }

  private settle(worker: Worker, reply: Reply): void {
    const job = this.busy.get(worker);
    if (!job || job.id !== reply.id) return;
    this.busy.delete(worker);
    worker.unref();
    this.idle.push(worker);
    if (reply.error) job.reject(Object.assign(new Error(reply.error.message), reply.error));
    else job.resolve(reply.value);
    this.dispatch();
  }

  private lose(worker: Worker, err: Error): void {
    const job = this.busy.get(worker);
    this.busy.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    else if (!job) return;
    this.started--;
    job?.reject(err);
    this.dispatch();
  }
}

/** One thread on a 2-core host (the event loop keeps the other core), at most 4. */
function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}
