import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { OutputCollector } from './outputCollector';

/** What a backend hands over once it has started a kernel: its pipes and a way to kill it. */
export interface KernelStreams {
  stdin: NodeJS.WritableStream;
  /** The protocol channel (fd 3 for local processes, stdout for Docker attach). */
  replies: Readable;
  /** Raw fd 1 / fd 2 output (subprocesses, os.write); null when merged into the other stream. */
  stdout: Readable | null;
  stderr: Readable | null;
  kill(): void;
  exited: Promise<ProcessExit>;
}

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

export interface CellRequest {
  code: string;
  timeoutSec: number;
  maxOutput: number;
}

export interface CellReply {
  stdout: string;
  stderr: string;
  error: string;
  result: string | null;
  timedOut: boolean;
  truncated: boolean;
}

/**
 * One running kernel. The JSON-lines implementation below is the only one; a Jupyter adapter (ipykernel over ZMQ)
 * would implement the same three methods.
 */
export interface KernelProcess {
  /** Runs a cell; rejects with KernelExitedError if the process dies before replying. */
  exec(req: CellRequest): Promise<CellReply>;
  /** Starts background imports so the first real cell does not pay for them. */
  warm(modules: string[]): void;
  kill(): void;
  readonly exited: Promise<ProcessExit>;
}

export class KernelExitedError extends Error {
  constructor(
    readonly exit: ProcessExit,
    readonly partialStdout: string,
    readonly partialStderr: string,
  ) {
    super(`kernel exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})`);
    this.name = 'KernelExitedError';
  }
}

const readySchema = z.object({ op: z.literal('ready') });
const replySchema = z.object({
  id: z.string(),
  stdout: z.string(),
  stderr: z.string(),
  error: z.string(),
  result: z.string().nullable(),
  timedOut: z.boolean(),
  truncated: z.boolean(),
});

/** How long to wait for raw fd output of a cell after its reply arrived. */
const RAW_OUTPUT_GRACE_MS = 200;

export class JsonLinesKernel implements KernelProcess {
  private nextId = 0;
  private pending: { id: string; resolve: (r: CellReply) => void } | null = null;
  private exitInfo: ProcessExit | null = null;
  private readonly rawOut: OutputCollector;
  private readonly rawErr: OutputCollector;
  readonly exited: Promise<ProcessExit>;

  private constructor(
    private readonly streams: KernelStreams,
    maxOutput: number,
  ) {
    this.rawOut = new OutputCollector(streams.stdout, maxOutput);
    this.rawErr = new OutputCollector(streams.stderr, maxOutput);
    this.exited = streams.exited.then((exit) => (this.exitInfo = exit));
    streams.stdin.on('error', () => undefined); // EPIPE after a crash is reported through `exited`
  }

  /** Waits for the kernel's ready line; kills it and rejects if it does not come in time or the process dies. */
  static async start(
    streams: KernelStreams,
    opts: { readyTimeoutMs: number; maxOutput: number },
  ): Promise<JsonLinesKernel> {
    const kernel = new JsonLinesKernel(streams, opts.maxOutput);
    const lines = createInterface({ input: streams.replies });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`kernel not ready after ${opts.readyTimeoutMs} ms`)),
        opts.readyTimeoutMs,
      );
      void kernel.exited.then((exit) => {
        clearTimeout(timer);
        const why = kernel.rawErr.drain().text.trim().slice(-2000);
        reject(new KernelExitedError(exit, '', why));
      });
      lines.once('line', (line) => {
        clearTimeout(timer);
        if (readySchema.safeParse(safeJson(line)).success) resolve();
        else reject(new Error(`kernel sent an unexpected first line: ${line.slice(0, 200)}`));
      });
    });
    try {
      await ready;
    } catch (err) {
      streams.kill();
      throw err;
    }
    lines.on('line', (line) => kernel.onReplyLine(line));
    return kernel;
  }

  exec(req: CellRequest): Promise<CellReply> {
    if (this.pending) return Promise.reject(new Error('kernel is busy: executions must not overlap'));
    if (this.exitInfo) return Promise.reject(new KernelExitedError(this.exitInfo, '', ''));
    const id = String(++this.nextId);
    const reply = new Promise<CellReply>((resolve) => (this.pending = { id, resolve }));
    const died = this.exited.then((exit) => {
      throw new KernelExitedError(exit, this.rawOut.drain().text, this.rawErr.drain().text);
    });
    this.streams.stdin.write(
      JSON.stringify({ id, op: 'exec', code: req.code, timeout: req.timeoutSec, maxOutput: req.maxOutput }) + '\n',
    );
    return Promise.race([reply, died]).then(
      (r) => this.withRawOutput(id, r),
      (err) => {
        this.pending = null;
        throw err;
      },
    );
  }

  warm(modules: string[]): void {
    this.streams.stdin.write(JSON.stringify({ op: 'warm', modules }) + '\n');
  }

  kill(): void {
    this.streams.kill();
  }

  private onReplyLine(line: string): void {
    const parsed = replySchema.safeParse(safeJson(line));
    // Anything else on the channel was written by user code to fd 3: ignore it rather than trust it.
    if (!parsed.success || !this.pending || parsed.data.id !== this.pending.id) return;
    const { resolve } = this.pending;
    this.pending = null;
    resolve(parsed.data);
  }

  private async withRawOutput(id: string, reply: CellReply): Promise<CellReply> {
    const [out, err] = await Promise.all([
      this.rawOut.take(id, RAW_OUTPUT_GRACE_MS),
      this.rawErr.take(id, RAW_OUTPUT_GRACE_MS),
    ]);
    return {
      ...reply,
      stdout: reply.stdout + out.text,
      stderr: reply.stderr + err.text,
      truncated: reply.truncated || out.truncated || err.truncated,
    };
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
