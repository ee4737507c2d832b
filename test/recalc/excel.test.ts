import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtemp, rm, writeFile, readFile, readdir } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import os from 'node:os';
import {
  ExcelRecalculator,
  excelScriptArgs,
  EXCEL_SCRIPT,
  type ExcelDeps,
  type SpawnedProcess,
} from '../../lib/recalc/excel';
import { quoteWindowsArg, windowsCommandLine } from '../../lib/recalc/windowsCommandLine';
import { createRecalculator } from '../../lib/recalc/index';

// Excel itself cannot run here: these tests drive ExcelRecalculator with a fake PowerShell.

/**
 * Independent parser of a Windows command line, written from Microsoft's documented rules ("Parsing C++ command-line
 * arguments"): 2n backslashes + quote → n backslashes and a quote toggle; 2n+1 backslashes + quote → n backslashes and
 * a literal quote; backslashes elsewhere are literal.
 */
function parseWindowsCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inQuotes = false;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\') {
      let n = 0;
      while (line[i] === '\\') {
        n++;
        i++;
      }
      if (line[i] === '"') {
        current += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) current += '"';
        else inQuotes = !inQuotes;
      } else {
        current += '\\'.repeat(n);
        i--;
      }
      started = true;
    } else if (ch === '"') {
      inQuotes = !inQuotes;
      started = true;
    } else if ((ch === ' ' || ch === '\t') && !inQuotes) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}

interface FakeRun {
  file: string;
  args: string[];
  proc: SpawnedProcess & { stdout: PassThrough; stderr: PassThrough };
  exit(code: number | null): void;
}

/** A fake PowerShell: records each start; the test decides what it prints, writes and returns. */
function fakeDeps(behave: (run: FakeRun) => void | Promise<void>) {
  const runs: FakeRun[] = [];
  const killed: number[] = [];
  let nextPid = 1000;
  const deps: ExcelDeps = {
    spawn(file, commandLine) {
      let exit!: (code: number | null) => void;
      const exited = new Promise<{ code: number | null }>((resolve) => {
        exit = (code) => resolve({ code });
      });
      const run: FakeRun = {
        file,
        args: parseWindowsCommandLine(commandLine),
        proc: { pid: nextPid++, stdout: new PassThrough(), stderr: new PassThrough(), exited },
        exit,
      };
      runs.push(run);
      void behave(run);
      return run.proc;
    },
    async killTree(pid) {
      killed.push(pid);
    },
  };
  return { deps, runs, killed };
}

const argAfter = (args: string[], name: string) => args[args.indexOf(name) + 1];

/** Behaves like recalc.ps1 on success: announces Excel's pid, writes the output, exits 0. */
async function excelSucceeds(run: FakeRun): Promise<void> {
  run.proc.stdout.write('EXCEL_PID=4242\r\n');
  await writeFile(argAfter(run.args, '-Output'), 'xlsx bytes');
  run.proc.stdout.end('RESULT=ok\r\n');
  run.exit(0);
}

let dir: string;
let input: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'excel-test-'));
  input = path.join(dir, 'in put.xlsx');
  await writeFile(input, 'pretend workbook');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('Windows command line quoting', () => {
  it('quotes only what needs quoting', () => {
    expect(quoteWindowsArg('-NoProfile')).toBe('-NoProfile');
    expect(quoteWindowsArg('C:\\data\\a.xlsx')).toBe('C:\\data\\a.xlsx');
    expect(quoteWindowsArg('C:\\My Files\\a b.xlsx')).toBe('"C:\\My Files\\a b.xlsx"');
    expect(quoteWindowsArg('')).toBe('""');
    expect(quoteWindowsArg('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteWindowsArg('C:\\dir with space\\')).toBe('"C:\\dir with space\\\\"');
    expect(quoteWindowsArg('a\\"b')).toBe('"a\\\\\\"b"');
  });

  it('round-trips awkward paths through the documented parsing rules', () => {
    const paths = [
      'C:\\Users\\Jane Doe\\Book 1.xlsx',
      "C:\\it's\\O'Brien $HOME.xlsx",
      'C:\\quote"inside\\x.xlsx',
      'C:\\trailing backslash\\',
      '\\\\server\\share name\\a.xlsx',
      'C:\\tab\there\\ünïcödé.xlsx',
    ];
    for (const p of paths) {
      const args = excelScriptArgs({
        scriptPath: 'C:\\sheet bench\\recalc.ps1',
        inputPath: p,
        outputPath: `${p}.out`,
        materializeSpills: true,
      });
      expect(parseWindowsCommandLine(windowsCommandLine(args))).toEqual(args);
    }
  });

  it('builds the PowerShell arguments in the documented order', () => {
    expect(
      excelScriptArgs({ scriptPath: 'S.ps1', inputPath: 'I.xlsx', outputPath: 'O.xlsx', materializeSpills: false }),
    ).toEqual([
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-File',
      'S.ps1',
      '-Input',
      'I.xlsx',
      '-Output',
      'O.xlsx',
    ]);
    expect(
      excelScriptArgs({ scriptPath: 'S.ps1', inputPath: 'I', outputPath: 'O', materializeSpills: true }).at(-1),
    ).toBe('-MaterializeSpills');
  });
});

describe('ExcelRecalculator with a fake PowerShell', () => {
  it('runs recalc.ps1 and moves its output into place', async () => {
    const fake = fakeDeps(excelSucceeds);
    const excel = ExcelRecalculator.create({ materializeSpills: true }, fake.deps);
    const output = path.join(dir, 'out dir', 'result.xlsx');

    const result = await excel.recalc(input, output);

    expect(result).toMatchObject({ ok: true, engine: 'excel' });
    expect(await readFile(output, 'utf8')).toBe('xlsx bytes');
    const run = fake.runs[0];
    expect(run.file).toBe('powershell.exe');
    expect(argAfter(run.args, '-File')).toBe(EXCEL_SCRIPT);
    expect(argAfter(run.args, '-Input')).toBe(input);
    expect(path.dirname(argAfter(run.args, '-Output'))).toBe(path.dirname(output));
    expect(run.args).toContain('-MaterializeSpills');
    expect(await readdir(path.dirname(output))).toEqual(['result.xlsx']);
  });

  it('maps the script exit codes to reasons with its stderr', async () => {
    const fake = fakeDeps((run) => {
      run.proc.stderr.end('Excel could not open the workbook: file is corrupt');
      setTimeout(() => run.exit(2), 5);
    });
    const result = await ExcelRecalculator.create({}, fake.deps).recalc(input, path.join(dir, 'bad.xlsx'));
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Excel could not open the workbook: .*corrupt/),
    });
  });

  it('fails when the script exits 0 without writing the output', async () => {
    const fake = fakeDeps((run) => run.exit(0));
    const output = path.join(dir, 'silent.xlsx');
    const result = await ExcelRecalculator.create({}, fake.deps).recalc(input, output);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('wrote no output') });
  });

  it('reports an unknown exit code and a PowerShell that cannot start', async () => {
    const odd = await ExcelRecalculator.create({}, fakeDeps((run) => run.exit(77)).deps).recalc(
      input,
      path.join(dir, 'odd.xlsx'),
    );
    expect(odd.error).toBe('PowerShell exited with code 77');
    const noShell: ExcelDeps = {
      spawn: () => ({
        stdout: new PassThrough(),
        stderr: new PassThrough(),
        exited: Promise.resolve({ code: null, error: 'spawn powershell.exe ENOENT' }),
      }),
      killTree: async () => undefined,
    };
    const missing = await ExcelRecalculator.create({}, noShell).recalc(input, path.join(dir, 'none.xlsx'));
    expect(missing.error).toBe('PowerShell could not run: spawn powershell.exe ENOENT');
  });

  it('kills PowerShell and the announced EXCEL.EXE on a timeout', async () => {
    const fake = fakeDeps((run) => {
      run.proc.stdout.write('EXCEL_PID=4242\n'); // then hangs for ever
    });
    const output = path.join(dir, 'hung.xlsx');

    const result = await ExcelRecalculator.create({}, fake.deps).recalc(input, output, { timeoutMs: 100 });

    expect(result).toMatchObject({
      ok: false,
      error: 'timed out after 100 ms; killed PowerShell and EXCEL.EXE (pid 4242)',
    });
    expect(fake.killed.sort()).toEqual([fake.runs[0].proc.pid, 4242].sort());
    expect(await readdir(dir)).not.toContain('hung.xlsx');
  });

  it('runs one file at a time', async () => {
    let active = 0;
    let peak = 0;
    const fake = fakeDeps(async (run) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 20));
      active--;
      await excelSucceeds(run);
    });
    const excel = ExcelRecalculator.create({}, fake.deps);
    const results = await Promise.all([1, 2, 3].map((i) => excel.recalc(input, path.join(dir, `seq-${i}.xlsx`))));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(peak).toBe(1);
    expect(fake.runs).toHaveLength(3);
  });

  it('fails a missing input without starting PowerShell, and refuses work after close()', async () => {
    const fake = fakeDeps(excelSucceeds);
    const excel = ExcelRecalculator.create({}, fake.deps);
    expect(await excel.recalc(path.join(dir, 'nope.xlsx'), path.join(dir, 'x.xlsx'))).toMatchObject({
      ok: false,
      error: expect.stringContaining('input file not found'),
    });
    await excel.close();
    expect((await excel.recalc(input, path.join(dir, 'y.xlsx'))).error).toBe('the recalculator is closed');
    expect(fake.runs).toHaveLength(0);
  });

  it('is what createRecalculator("excel") returns', () => {
    expect(createRecalculator('excel')).toBeInstanceOf(ExcelRecalculator);
    expect(createRecalculator('excel').engine).toBe('excel');
  });
});
