import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { registerSandboxCommand } from '../../cli/commands/sandbox';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'sb-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** cli/main.ts imports commands others are still writing; fall back to a tiny program around our register function. */
let mainLoads = true;
async function sheetbench(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  if (mainLoads) {
    const viaMain = await run('node', ['--import', 'tsx', 'cli/main.ts', ...args], { cwd: process.cwd() }).then(
      (r) => ({ ...r, code: 0 }),
      (e: { stdout: string; stderr: string; code: number }) => e,
    );
    // A module-load failure of someone else's command shows as a loader stack trace before any output.
    if (!/node:internal\/modules/.test(viaMain.stderr)) return viaMain;
    mainLoads = false;
  }
  const harness = join(dir, 'harness.mts');
  writeFileSync(
    harness,
    `import { Command } from '${createRequire(import.meta.url).resolve('commander')}';\nimport { registerSandboxCommand } from '${process.cwd()}/cli/commands/sandbox';\nimport { exitCodeOf, describeError } from '${process.cwd()}/cli/exitCodes';\nconst p = new Command('sheetbench');\nregisterSandboxCommand(p);\np.parseAsync(process.argv).catch((e) => { process.stderr.write('sheetbench: ' + describeError(e) + '\\n'); process.exit(exitCodeOf(e)); });\n`,
  );
  return run('node', ['--import', 'tsx', harness, ...args], { cwd: process.cwd() }).then(
    (r) => ({ ...r, code: 0 }),
    (e: { stdout: string; stderr: string; code: number }) => e,
  );
}

describe('sheetbench sandbox exec', () => {
  it('registers the subcommand', () => {
    const program = new Command();
    registerSandboxCommand(program);
    expect(program.commands.find((c) => c.name() === 'sandbox')?.commands.map((c) => c.name())).toEqual(['exec']);
  });

  it('runs a file over a copy of the work dir and prints one JSON object', async () => {
    const input = join(dir, 'input');
    rmSync(input, { recursive: true, force: true });
    mkdirSync(input);
    writeFileSync(join(input, 'data.txt'), 'hello');
    writeFileSync(
      join(dir, 'job.py'),
      'import os\ntext = open("data.txt").read()\nopen("out.txt", "w").write(text.upper())\nprint(text, os.getuid())\n',
    );
    const { stdout, code } = await sheetbench([
      'sandbox',
      'exec',
      '--backend',
      'bwrap',
      '--workdir',
      input,
      '--timeout',
      '10',
      join(dir, 'job.py'),
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      stdout: 'hello 1000\n',
      error: '',
      timedOut: false,
      exitCode: 0,
      files: ['out.txt'],
      backend: 'bwrap',
    });
    expect(readdirSync(input)).toEqual(['data.txt']); // the original folder is untouched
  });

  it('reports a timeout and an error in the JSON, not as a crash', async () => {
    writeFileSync(join(dir, 'loop.py'), 'while True: pass\n');
    const { stdout } = await sheetbench([
      'sandbox',
      'exec',
      '--backend',
      'bwrap',
      '--timeout',
      '0.5',
      join(dir, 'loop.py'),
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ timedOut: true, exitCode: 1 });
  });

  it('bad arguments give a clear message and a usage exit code', async () => {
    const missing = await sheetbench(['sandbox', 'exec', join(dir, 'nope.py')]);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toContain('cannot read');
    const badTimeout = await sheetbench(['sandbox', 'exec', '--timeout', 'soon', join(dir, 'loop.py')]);
    expect(badTimeout.code).toBe(2);
  });
});
