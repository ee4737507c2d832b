import { spawn, execFile } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Recalculator, RecalcResult } from './types';
import { startResult } from './result';
import { SerialQueue } from './serialQueue';
import { checkInput, stageOutput } from './outputFile';
import { windowsCommandLine } from './windowsCommandLine';

// UNVERIFIED on real Excel: this machine has no Windows. See lib/recalc/README.md.

export const EXCEL_SCRIPT = fileURLToPath(new URL('./excel/recalc.ps1', import.meta.url));

export const excelOptionsSchema = z.object({
  powershellPath: z.string().min(1).default('powershell.exe'),
  scriptPath: z.string().min(1).default(EXCEL_SCRIPT),
  /** Replace dynamic-array spill ranges by static values before saving. */
  materializeSpills: z.boolean().default(false),
  defaultTimeoutMs: z.number().int().positive().default(120_000),
});
export type ExcelOptions = z.input<typeof excelOptionsSchema>;

/** A started process as the recalculator needs it; `exited` never rejects. */
export interface SpawnedProcess {
  pid?: number;
  stdout: Readable;
  stderr: Readable;
  exited: Promise<{ code: number | null; error?: string }>;
}

export interface ExcelDeps {
  /** Starts `file` with an already-quoted Windows command line. */
  spawn(file: string, commandLine: string): SpawnedProcess;
  /** Kills a process and its children (taskkill /T /F). */
  killTree(pid: number): Promise<void>;
}

/** Exit codes of recalc.ps1. */
const SCRIPT_EXIT: Record<number, string> = {
  2: 'Excel could not open the workbook',
  3: 'Excel failed to calculate or save',
  4: 'bad input',
  5: 'Excel is not available through COM',
};

export function excelScriptArgs(o: {
  scriptPath: string;
  inputPath: string;
  outputPath: string;
  materializeSpills: boolean;
}): string[] {
  return [
    '-NoProfile',
    '-NonInteractive',
    '-ExecutionPolicy',
    'Bypass',
    '-File',
    o.scriptPath,
    '-Input',
    o.inputPath,
    '-Output',
    o.outputPath,
    ...(o.materializeSpills ? ['-MaterializeSpills'] : []),
  ];
}

/**
 * Recalculates in Microsoft Excel (Application.CalculateFull) by running recalc.ps1 once per file, one file at a time.
 * On a timeout it kills the PowerShell tree and the EXCEL.EXE the script announced (COM starts Excel outside that tree).
 */
export class ExcelRecalculator implements Recalculator {
  readonly engine = 'excel' as const;
  private readonly queue = new SerialQueue();
  private closed = false;

  private constructor(
    private readonly opts: z.output<typeof excelOptionsSchema>,
    private readonly deps: ExcelDeps,
  ) {}

  static create(options: ExcelOptions = {}, deps: ExcelDeps = windowsDeps): ExcelRecalculator {
    return new ExcelRecalculator(excelOptionsSchema.parse(options), deps);
  }

  recalc(inputPath: string, outputPath: string, opts: { timeoutMs?: number } = {}): Promise<RecalcResult> {
    const done = startResult(this.engine);
    if (this.closed) return Promise.resolve(done('the recalculator is closed'));
    return this.queue.run(async () =>
      done(await this.recalcNow(inputPath, outputPath, opts.timeoutMs ?? this.opts.defaultTimeoutMs)),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.drain();
  }

  /** Returns an error text, or undefined on success. */
  private async recalcNow(inputPath: string, outputPath: string, timeoutMs: number): Promise<string | undefined> {
    const input = path.resolve(inputPath);
    const inputError = await checkInput(input);
    if (inputError) return inputError;
    const staged = await stageOutput(path.resolve(outputPath));
    const args = excelScriptArgs({
      scriptPath: this.opts.scriptPath,
      inputPath: input,
      outputPath: staged.tempPath,
      materializeSpills: this.opts.materializeSpills,
    });
    const error = await this.runScript(windowsCommandLine(args), timeoutMs);
    if (error) {
      await staged.discard();
      return error;
    }
    return staged.commit();
  }

  private async runScript(commandLine: string, timeoutMs: number): Promise<string | undefined> {
    const proc = this.deps.spawn(this.opts.powershellPath, commandLine);
    let excelPid: number | undefined;
    let stderr = '';
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /^EXCEL_PID=(\d+)\s*$/.exec(line);
      if (m) excelPid = Number(m[1]);
    });
    proc.stderr.on('data', (chunk: Buffer | string) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([proc.exited, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      const killed = [proc.pid, excelPid].filter((pid): pid is number => pid !== undefined && pid > 0);
      await Promise.all(killed.map((pid) => this.deps.killTree(pid)));
      return `timed out after ${timeoutMs} ms; killed PowerShell${excelPid ? ` and EXCEL.EXE (pid ${excelPid})` : ''}`;
    }
    return describeExit(outcome, stderr.trim());
  }
}

function describeExit(exit: { code: number | null; error?: string }, stderr: string): string | undefined {
  if (exit.error) return `PowerShell could not run: ${exit.error}`;
  if (exit.code === 0) return undefined;
  const what =
    (exit.code !== null && SCRIPT_EXIT[exit.code]) || `PowerShell exited with code ${exit.code ?? 'none (killed)'}`;
  return stderr ? `${what}: ${stderr}` : what;
}

const windowsDeps: ExcelDeps = {
  spawn(file, commandLine) {
    // The command line is quoted by windowsCommandLine(); Node must pass it through untouched.
    const child = spawn(file, [commandLine], {
      windowsVerbatimArguments: true,
      windowsHide: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; error?: string }>((resolve) => {
      child.once('error', (err) => resolve({ code: null, error: err.message }));
      child.once('exit', (code) => resolve({ code }));
    });
    return { pid: child.pid, stdout: child.stdout, stderr: child.stderr, exited };
  },
  killTree(pid) {
    return new Promise((resolve) => {
      execFile('taskkill', ['/PID', String(pid), '/T', '/F'], { windowsHide: true }, () => resolve());
    });
  },
};
