import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { ToolRefusal, type AnalysisTool } from './types';

const MAX_EXPRESSION_CHARS = 2000;
const EVALUATION_TIMEOUT_MS = 5_000;
/** Heap of the evaluating thread: far more than any sensible expression, far less than the worker process has. */
const WORKER_HEAP_MB = 128;

interface WorkerReply {
  id: number;
  ok: boolean;
  result?: string;
  value?: number;
  error?: string;
}

type Pending = Map<number, { resolve: (r: WorkerReply) => void; reject: (e: Error) => void }>;

interface Thread {
  worker: Worker;
  /** Resolves once mathjs is loaded (slow on a busy machine: not counted against an evaluation's time). */
  ready: Promise<void>;
  pending: Pending;
  busy: number;
}

/** One evaluation thread per process, replaced when it dies (heap limit) or is ended (timeout). */
class CalculatorThread {
  private current: Thread | null = null;
  private nextId = 0;

  async evaluate(expression: string): Promise<WorkerReply> {
    const thread = (this.current ??= this.start());
    // Referenced only while a call waits on it: an idle calculator never keeps a process alive.
    if (thread.busy++ === 0) thread.worker.ref();
    try {
      await thread.ready;
      return await this.send(thread, expression);
    } finally {
      if (--thread.busy === 0) thread.worker.unref();
    }
  }

  private send(thread: Thread, expression: string): Promise<WorkerReply> {
    const id = ++this.nextId;
    return new Promise<WorkerReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        thread.pending.delete(id);
        this.end(thread);
        reject(
          new ToolRefusal(
            `the calculation took longer than ${EVALUATION_TIMEOUT_MS / 1000} s and was stopped; use python_execute for heavy work`,
          ),
        );
      }, EVALUATION_TIMEOUT_MS);
      thread.pending.set(id, {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      thread.worker.postMessage({ id, expression });
    });
  }

  private start(): Thread {
    const worker = new Worker(new URL('./calculatorWorker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
    });
    const pending: Pending = new Map();
    let markReady: () => void = () => undefined;
    let failStart: (e: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => ((markReady = resolve), (failStart = reject)));
    ready.catch(() => undefined); // a thread that dies while loading is reported to the caller awaiting it, never unhandled
    const thread: Thread = { worker, ready, pending, busy: 0 };
    worker.on('message', (reply: WorkerReply | { ready: true }) => {
      if ('ready' in reply) return markReady();
      pending.get(reply.id)?.resolve(reply);
      pending.delete(reply.id);
    });
    const fail = (err: Error) => {
      if (this.current === thread) this.current = null;
      const outOfMemory = /out of memory/i.test(`${err.message} ${(err as NodeJS.ErrnoException).code ?? ''}`);
      const reason = outOfMemory
        ? `the calculation needs more than ${WORKER_HEAP_MB} MB and was stopped; use python_execute for large matrices`
        : `the calculator stopped: ${err.message}`;
      failStart(new ToolRefusal(reason));
      for (const p of pending.values()) p.reject(new ToolRefusal(reason));
      pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`evaluation thread exited (${code})`)));
    return thread;
  }

  private end(thread: Thread): void {
    if (this.current === thread) this.current = null;
    void thread.worker.terminate();
  }
}

const thread = new CalculatorThread();

export const calculatorArgs = z.object({
  expression: z
    .string()
    .min(1)
    .max(MAX_EXPRESSION_CHARS)
    .describe(
      'A mathjs expression: arithmetic (2^10 / 3), statistics (mean([1,2,3]), median, std, variance, quantileSeq), units (5 km to mile, 100 degF to degC). Several statements may be separated by ";" or newlines; the last value is returned.',
    ),
});

export interface CalculatorResult {
  expression: string;
  /** The value formatted with up to 14 significant digits. */
  result: string;
  /** The value as a JSON number when it is a plain real number. */
  value?: number;
}

export const calculatorTool: AnalysisTool<z.infer<typeof calculatorArgs>, CalculatorResult> = {
  name: 'calculator',
  description:
    'Evaluates a math expression safely (mathjs, never eval): arithmetic, statistics (mean, median, std, sum, min, max) and unit conversion ("12 inch to cm"). Use it for quick numbers; use python_execute for data files.',
  args: calculatorArgs,
  async run({ expression }) {
    const reply = await thread.evaluate(expression);
    if (!reply.ok) throw new ToolRefusal(`calculator could not evaluate ${JSON.stringify(expression)}: ${reply.error}`);
    return reply.value === undefined
      ? { expression, result: reply.result! }
      : { expression, result: reply.result!, value: reply.value };
  },
};
