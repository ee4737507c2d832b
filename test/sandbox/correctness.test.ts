import ExcelJS from 'exceljs';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxAbortedError, SandboxLostError, type Sandbox, type SandboxFactory } from '../../lib/sandbox/index';
import { createSandboxFactory } from '../../lib/sandbox/index';
import { bwrapFactory, makeWorkRoot, testConfig } from './helpers';

describe('bwrap sandbox: kernel behaviour', () => {
  let factory: SandboxFactory;
  let sb: Sandbox;
  const env = makeWorkRoot();

  beforeAll(async () => {
    factory = await bwrapFactory();
    sb = await factory.create({ workDir: env.workDir });
  });
  afterAll(async () => {
    await sb?.dispose();
    env.cleanup();
  });

  it('runs under bwrap with /job as the work dir', () => {
    expect(factory.backend).toBe('bwrap');
    expect(sb.workDirInside).toBe('/job');
  });

  it('keeps variables between executions and echoes the last expression', async () => {
    expect((await sb.execute('keep = 41')).error).toBe('');
    const r = await sb.execute('keep + 1');
    expect(r.stdout).toBe('42\n');
    expect(r.stateReset).toBe(false);
  });

  it('captures stdout, stderr and subprocess output', async () => {
    const r = await sb.execute(
      'import sys, os\nprint("out")\nprint("err", file=sys.stderr)\nos.system("echo sub-out; echo sub-err >&2")',
    );
    expect(r.stdout).toContain('out\n');
    expect(r.stdout).toContain('sub-out');
    expect(r.stderr).toContain('err\n');
    expect(r.stderr).toContain('sub-err');
  });

  it('condenses tracebacks and hides kernel frames', async () => {
    const r = await sb.execute('def f():\n    return 1/0\nf()');
    expect(r.error).toMatch(/^Traceback \(most recent call last\):/);
    expect(r.error).toContain('File "<cell');
    expect(r.error).toMatch(/ZeroDivisionError: division by zero$/);
    expect(r.error).not.toContain('kernel.py');
    const deep = await sb.execute('import pandas as pd\npd.read_excel("/job/missing.xlsx")');
    expect(deep.error).toContain('FileNotFoundError');
    expect(deep.error).toContain('frame(s) omitted');
  });

  it('soft timeout interrupts the cell and keeps the state', async () => {
    const r = await sb.execute('import time\ntime.sleep(100)', { timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    expect(r.stateReset).toBe(false);
    expect(r.durationMs).toBeLessThan(30_000); // interrupted, far from the 100 s asked (the overshoot depends on load)
    expect((await sb.execute('keep')).stdout).toBe('41\n');
  });

  it('hard-kills code that ignores the interrupt, respawns and reports stateReset', async () => {
    // Code that ignores SIGALRM cannot be interrupted softly: only the Node-side hard kill ends it. The timeout leaves the
    // code time to ignore the alarm first even on a loaded machine (else the soft interrupt would end it).
    const r = await sb.execute('import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True: pass', {
      timeoutMs: 2_000,
    });
    expect(r.timedOut).toBe(true);
    expect(r.stateReset).toBe(true);
    expect(r.error).toContain('all variables from earlier executions are lost');
    const after = await sb.execute('keep');
    expect(after.error).toContain("NameError: name 'keep' is not defined");
    expect((await sb.execute('1 + 1')).stdout).toBe('2\n');
  });

  it('abort signal kills the running code and throws SandboxAbortedError', async () => {
    await sb.execute('before_abort = 1');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('workflow cancelled')), 200);
    const started = Date.now();
    await expect(sb.execute('import time\ntime.sleep(30)', { signal: controller.signal })).rejects.toBeInstanceOf(
      SandboxAbortedError,
    );
    expect(Date.now() - started).toBeLessThan(20_000); // killed, not left to sleep its 30 s
    expect((await sb.execute('"before_abort" in globals()')).stdout).toBe('False\n');
  });

  it('reports created and changed files, and moves files in and out', async () => {
    await sb.writeFile('in/data.txt', 'abc');
    const r = await sb.execute('open("/job/out.txt","w").write(open("/job/in/data.txt").read().upper())');
    expect(r.files).toEqual(['out.txt']);
    expect((await sb.readFile('out.txt')).toString()).toBe('ABC');
    await expect(sb.readFile('../1_999_answer.xlsx')).rejects.toThrow(/outside the sandbox work dir/);
  });

  it('reset() drops the state but keeps the work dir', async () => {
    await sb.execute('gone = 1');
    await sb.reset();
    expect((await sb.execute('"gone" in globals()')).stdout).toBe('False\n');
    expect(existsSync(join(env.workDir, 'out.txt'))).toBe(true);
  });

  it('bad input gives a clear result, never a crash', async () => {
    const syntax = await sb.execute('def (:');
    expect(syntax.error).toMatch(/SyntaxError/);
    const empty = await sb.execute('');
    expect(empty).toMatchObject({ error: '', stdout: '', stateReset: false });
    const garbage = await sb.execute(Buffer.from([0, 159, 146, 150, 255, 0, 10, 7]).toString('latin1'));
    expect(garbage.error).toMatch(/null bytes|SyntaxError|ValueError/);
    const missing = await sb.execute('import openpyxl\nopenpyxl.load_workbook("/job/nope_input.xlsx")');
    expect(missing.error).toMatch(/FileNotFoundError: .*nope_input\.xlsx/);
    const exit = await sb.execute('import sys\nsys.exit(3)');
    expect(exit.error).toContain('SystemExit: 3');
    expect((await sb.execute('1 + 1')).stdout).toBe('2\n');
  });

  it('pandas + openpyxl + matplotlib: reads an input workbook, writes an output workbook and a PNG', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['name', 'qty']);
    [
      ['a', 3],
      ['b', 4],
      ['c', 5],
    ].forEach((row) => ws.addRow(row));
    await sb.writeFile('1_999_input.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    const code = [
      'import pandas as pd, openpyxl, matplotlib',
      'matplotlib.use("Agg")',
      'import matplotlib.pyplot as plt',
      'df = pd.read_excel("/job/1_999_input.xlsx")',
      'df["double"] = df["qty"] * 2',
      'df.to_excel("/job/1_999_output.xlsx", index=False)',
      'df.plot.bar(x="name", y="qty").figure.savefig("/job/chart.png")',
      'wb = openpyxl.load_workbook("/job/1_999_output.xlsx")',
      'print(wb.active["C4"].value, openpyxl.__version__)',
    ].join('\n');
    const r = await sb.execute(code, { timeoutMs: 30_000 });
    expect(r.error).toBe('');
    expect(r.stdout).toBe('10 3.1.5\n');
    expect(r.files).toEqual(['1_999_output.xlsx', 'chart.png']);
    expect(readFileSync(join(env.workDir, 'chart.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(statSync(join(env.workDir, '1_999_output.xlsx')).uid).toBe(65534); // written by the unprivileged sandbox uid
  });
});

describe('bwrap sandbox: node language (one process per execution)', () => {
  const env = makeWorkRoot();
  afterAll(() => env.cleanup());

  it('runs node inside the same isolation', async () => {
    const sb = await (await bwrapFactory()).create({ workDir: env.workDir, language: 'node' });
    try {
      const r = await sb.execute(
        'const fs = require("fs"); fs.writeFileSync("/job/n.txt", "ok"); console.log(process.getuid(), process.cwd(), Object.keys(process.env).includes("OPENAI_API_KEY"))',
      );
      expect(r).toMatchObject({ stdout: '1000 /job false\n', error: '', exitCode: 0, files: ['n.txt'] });
      const net = await sb.execute('require("net").connect(80, "127.0.0.1").on("error", (e) => console.log(e.code))');
      expect(net.stdout.trim()).toBe('ECONNREFUSED');
      const boom = await sb.execute('throw new Error("boom")');
      expect(boom.exitCode).toBe(1);
      expect(boom.error).toContain('Error: boom');
      const loop = await sb.execute('while (true) {}', { timeoutMs: 300 });
      expect(loop).toMatchObject({ timedOut: true });
    } finally {
      await sb.dispose();
    }
  });
});

describe('sandbox lost', () => {
  it('a kernel that cannot start surfaces as SandboxLostError', async () => {
    const env = makeWorkRoot();
    process.env.SHEETBENCH_SANDBOX_PYTHON = '/usr/bin/false';
    try {
      const factory = await createSandboxFactory(testConfig('bwrap'), { warmModules: [] });
      await expect(factory.create({ workDir: env.workDir })).rejects.toBeInstanceOf(SandboxLostError);
    } finally {
      delete process.env.SHEETBENCH_SANDBOX_PYTHON;
      env.cleanup();
    }
  });

  it('a disposed sandbox refuses to execute', async () => {
    const env = makeWorkRoot();
    const sb = await (await bwrapFactory()).create({ workDir: env.workDir });
    await sb.dispose();
    await expect(sb.execute('1')).rejects.toBeInstanceOf(SandboxLostError);
    env.cleanup();
  });
});
