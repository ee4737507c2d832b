/** Runs jobs one at a time, in arrival order. A failing job does not stop the ones queued after it. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Jobs queued or running. */
  get pending(): number {
    return this.waiting;
  }

  run<T>(job: () => Promise<T>): Promise<T> {
    this.waiting++;
    const result = this.tail.then(job);
    const settle = () => {
      this.waiting--;
    };
    this.tail = result.then(settle, settle);
    return result;
  }

  /** Resolves once every job queued so far has settled. */
  async drain(): Promise<void> {
    await this.tail;
  }
}
