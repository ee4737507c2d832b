import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

/** One line of the audit log. It names ids, file names and sizes; never a token, a message's text or a file's content. */
export interface AuditEntry {
  action:
    | 'sign_in'
    | 'sign_in_failed'
    | 'sign_out'
    | 'create'
    | 'rename'
    | 'upload'
    | 'send'
    | 'cancel'
    | 'delete'
    | 'denied'
    | 'run_pause'
    | 'run_resume'
    | 'run_cancel'
    | 'export'
    | 'share'
    | 'unshare'
    | 'view_shared'
    | 'fork';
  user?: string;
  client: string;
  target?: string;
  detail?: Record<string, string | number | boolean | string[] | undefined>;
}

/** The audit log: JSON lines (`<server state>/audit.jsonl`, mode 0600), appended in order. */
export class AuditLog {
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  write(entry: AuditEntry): Promise<void> {
    const line = `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`;
    this.queue = this.queue.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      await appendFile(this.file, line, { mode: 0o600 });
    });
    return this.queue.catch((err: Error) => {
      process.stderr.write(`sheetbench serve: cannot write the audit log ${this.file}: ${err.message}\n`);
    });
  }
}
