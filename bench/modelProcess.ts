import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { readRequestLog, type RequestLogEntry } from '../lib/scriptedLlm';

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'scriptedModelProcess.ts');

/** The scripted model running in a child process (its CPU is not the harness's); its request log is read from its file. */
export interface ModelProcess {
  url: string;
  pid: number;
  readLog(): Promise<RequestLogEntry[]>;
  close(): Promise<void>;
}

export async function startModelProcess(script: 'copy-input' | 'dev20', latencyMs: number): Promise<ModelProcess> {
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-model-')), 'requests.jsonl');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ENTRY, '--script', script, '--latency', String(latencyMs), '--log', logFile],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`scripted model process exited (code ${code}) before listening`)));
  });
  return {
    url,
    pid: child.pid!,
    readLog: async () => (existsSync(logFile) ? readRequestLog(logFile) : []),
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
