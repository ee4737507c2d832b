import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'preview_server.py');
/** How long after the in-server timeout the host gives up on the server itself (it only forks and relays). */
const SERVER_GRACE_MS = 10_000;

const replySchema = z.object({ id: z.string(), text: z.string().optional(), error: z.string().optional() });

/** The workbook's own preview failed (raised, crashed or hung); the server is fine and a retry would fail the same way. */
export class WorkbookPreviewError extends Error {
  override name = 'WorkbookPreviewError';
}

interface Pending {
  resolve: (text: string) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * One warm Python process (pandas, openpyxl imported once) that builds previews in forked children, so a preview
 * costs a fork instead of a fresh interpreter. A child that crashes or hangs fails only its own request; if the
 * server itself dies or stops answering, its pending requests fail and the next request starts a fresh one.
 */
export class PreviewServer {
  private proc: ChildProcessWithoutNullStreams | null = null;
  private readonly pending = new Map<string, Pending>();
  private nextId = 0;
  private stderrTail = '';

  constructor(
    private readonly python: string,
    private readonly timeoutMs: number,
  ) {}

  preview(inputPath: string, rows: number): Promise<string> {
    const proc = this.ensureStarted();
    const id = String(++this.nextId);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => this.restart(`the preview server did not answer within ${(this.timeoutMs + SERVER_GRACE_MS) / 1000} s`),
        this.timeoutMs + SERVER_GRACE_MS,
      );
      this.pending.set(id, { resolve, reject, timer });
      proc.stdin.write(JSON.stringify({ id, path: inputPath, rows, timeout: this.timeoutMs / 1000 }) + '\n');
    });
  }

  /** Starts the server now (its imports take a few hundred ms), so the first preview does not wait for them. */
  warm(): void {
    this.ensureStarted();
  }

  /** The server's pid (tests check that a bad workbook does not cost the warm process). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  close(): void {
    this.restart('the preview server was closed');
  }

  private ensureStarted(): ChildProcessWithoutNullStreams {
    if (this.proc) return this.proc;
    const proc = spawn(this.python, [SCRIPT], {
      cwd: path.dirname(SCRIPT),
      env: { PATH: '/usr/bin:/bin', OPENBLAS_NUM_THREADS: '1', HOME: '/tmp' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.proc = proc;
    proc.stdin.on('error', () => undefined); // a dead server is reported through 'exit'
    proc.stderr.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-2000)));
    createInterface({ input: proc.stdout }).on('line', (line) => this.onReply(line));
    proc.on('exit', (code, signal) => {
      if (this.proc === proc)
        this.failAll(
          `the preview server exited (${signal ? `signal ${signal}` : `code ${code}`}): ${this.stderrTail.trim().split('\n').pop() ?? ''}`,
        );
    });
    proc.unref();
    for (const s of [proc.stdin, proc.stdout, proc.stderr]) (s as unknown as { unref?: () => void }).unref?.();
    return proc;
  }

  private onReply(line: string): void {
    const parsed = replySchema.safeParse(safeJson(line));
    if (!parsed.success) return;
    const waiter = this.pending.get(parsed.data.id);
    if (!waiter) return;
    this.pending.delete(parsed.data.id);
    clearTimeout(waiter.timer);
    if (parsed.data.text !== undefined) waiter.resolve(parsed.data.text);
    else waiter.reject(new WorkbookPreviewError(parsed.data.error ?? 'the preview server sent no result'));
  }

  private restart(reason: string): void {
    const proc = this.proc;
    this.proc = null;
    proc?.kill('SIGKILL');
    this.failAll(reason);
  }

  private failAll(reason: string): void {
    this.proc = null;
    for (const [id, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(reason));
      this.pending.delete(id);
    }
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
