import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

const SENTINEL = /\n\0sbk-end-([^\0]*)\0\n/;
/** Room kept after the cap so a sentinel split across chunks is still found. */
const TAIL = 256;

/**
 * Collects raw output a kernel process writes to fd 1 or 2 (subprocesses, os.write), capped, and split per cell by
 * the sentinel line the kernel writes before each reply.
 */
export class OutputCollector {
  private pending = '';
  private truncated = false;
  private readonly done = new Map<string, { text: string; truncated: boolean }>();
  private readonly waiters = new Map<string, () => void>();
  private readonly decoder = new StringDecoder('utf8');

  private readonly attached: boolean;

  constructor(
    stream: Readable | null,
    private readonly cap: number,
  ) {
    this.attached = stream !== null;
    stream?.on('data', (chunk: Buffer) => this.push(this.decoder.write(chunk)));
    stream?.on('error', () => undefined);
  }

  private push(text: string): void {
    this.pending += text;
    for (let m = SENTINEL.exec(this.pending); m; m = SENTINEL.exec(this.pending)) {
      // fd 1 and fd 2 may share one stream (Docker): the second sentinel of a cell appends to the first.
      const earlier = this.done.get(m[1]);
      const text = (earlier?.text ?? '') + this.pending.slice(0, m.index);
      this.done.set(m[1], { text, truncated: this.truncated || (earlier?.truncated ?? false) });
      this.pending = this.pending.slice(m.index + m[0].length);
      this.truncated = false;
      this.waiters.get(m[1])?.();
    }
    if (this.pending.length > this.cap + TAIL) {
      this.pending = this.pending.slice(0, this.cap) + this.pending.slice(-TAIL);
      this.truncated = true;
    }
  }

  /** Output of cell `id`; waits up to `graceMs` for its sentinel (user code may have closed the fd). */
  async take(id: string, graceMs: number): Promise<{ text: string; truncated: boolean }> {
    if (!this.attached) return { text: '', truncated: false };
    if (!this.done.has(id)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.waiters.set(id, () => (clearTimeout(timer), resolve()));
      });
      this.waiters.delete(id);
    }
    const found = this.done.get(id);
    this.done.delete(id);
    if (found)
      return { text: found.text.slice(0, this.cap), truncated: found.truncated || found.text.length > this.cap };
    return this.drain();
  }

  /** Everything collected so far (used after a crash, when no sentinel will come). */
  drain(): { text: string; truncated: boolean } {
    const out = { text: this.pending.slice(0, this.cap), truncated: this.truncated || this.pending.length > this.cap };
    this.pending = '';
    this.truncated = false;
    return out;
  }
}
