import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';
import { copyInputReply } from '../helpers/copyInput';
import { waitUntil } from '../helpers/wait';
import { EXIT } from '../../cli/exitCodes';
import { cliWorkspace } from '../helpers/cliWorkspace';
import { runArgs } from '../helpers/runArgs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = path.join(REPO, 'data/sample');
const KEY = 'the-right-key';
/** Task 1002's model call is refused (a non-retryable 400): the run has one failure to summarize. */
const SCRIPT = {
  rules: [
    {
      name: 'too-long',
      match: { anyMessage: /spreadsheet\/1002\// },
      fault: { kind: 'status' as const, status: 400, message: 'maximum context length exceeded for task 1002' },
    },
  ],
  fallback: copyInputReply,
  latencyMs: 1_500,
};

interface CliRun {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exit: Promise<number | null>;
}

/** The operator's rough edges, each as the operator meets them (bin/sheetbench against this test's servers). */
describe('sheetbench CLI for an operator: preflight, interrupts, control without workers, runs from anywhere', () => {
  let temporal: TestTemporal;
  let llm: ScriptedServer;
  let env: NodeJS.ProcessEnv;
  let work: string;
  /** Another directory: commands given only a run id must find the folder through Temporal. */
  let elsewhere: string;

  function cli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliRun {
    const child = spawn(path.join(REPO, 'bin/sheetbench'), args, {
      cwd: opts.cwd ?? work,
      env: { ...env, ...opts.env },
    });
    const run: CliRun = { child, stdout: '', stderr: '', exit: new Promise((resolve) => child.once('close', resolve)) };
    child.stdout.on('data', (d) => (run.stdout += d));
    child.stderr.on('data', (d) => (run.stderr += d));
    return run;
  }
  const done = async (args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => {
    const run = cli(args, opts);
    return { code: await run.exit, stdout: run.stdout, stderr: run.stderr };
  };

  beforeAll(async () => {
    temporal = await startTestTemporal();
    llm = await startScriptedServer({ script: SCRIPT, apiKey: KEY });
    ({ work, env } = cliWorkspace(
      'sb-op-',
      temporal,
      { recalc: { engine: 'none' }, temporal: { taskQueue: 'op-main', recalcTaskQueue: 'op-recalc' } },
      KEY,
    ));
    elsewhere = mkdtempSync(path.join(os.tmpdir(), 'sb-op-elsewhere-'));
  }, 120_000);
  afterAll(async () => {
    await llm?.close();
    await temporal?.stop();
  });

  it('refuses to start when the endpoint refuses the key or does not serve the model, before any task', async () => {
    const badKey = await done(
      [
        ...runArgs({
          dataset: SAMPLE,
          baseUrl: llm.url,
          model: 'scripted',
          runId: 'op-badkey',
          out: path.join(work, 'badkey'),
        }),
      ],
      {
        env: { OPENAI_API_KEY: 'a-wrong-key' },
      },
    );
    expect(badKey.code).toBe(EXIT.config);
    expect(badKey.stderr).toContain(`refusing to start: the model endpoint ${llm.url} refused the API key`);
    expect(badKey.stderr).toContain('Incorrect API key provided');
    const badModel = await done([
      ...runArgs({
        dataset: SAMPLE,
        baseUrl: llm.url,
        model: 'gpt-9',
        runId: 'op-badmodel',
        out: path.join(work, 'badmodel'),
      }),
    ]);
    expect(badModel.code).toBe(EXIT.config);
    expect(badModel.stderr).toContain(`does not serve model gpt-9 (it lists: scripted)`);
    expect(existsSync(path.join(work, 'badkey'))).toBe(false);
    expect(existsSync(path.join(work, 'badmodel'))).toBe(false);
    expect(llm.log).toHaveLength(0);
  }, 60_000);

  it('SIGTERM ends `run` promptly, names the resume command and leaves the run on the server', async () => {
    const run = cli([
      ...runArgs({ dataset: SAMPLE, baseUrl: llm.url, model: 'scripted', runId: 'op-1', out: path.join(work, 'op1') }),
      '--concurrency',
      '1',
    ]);
    await waitUntil(() => llm.log.length >= 1, 120_000, 'the first model call');
    run.child.kill('SIGTERM');
    const code = await Promise.race([
      run.exit,
      new Promise((resolve) => setTimeout(() => resolve('still running 30 s after SIGTERM'), 30_000)),
    ]);
    if (code === 'still running 30 s after SIGTERM') run.child.kill('SIGKILL');
    expect(code).toBe(EXIT.interrupted);
    expect(run.stderr).toContain('resume with: sheetbench resume op-1');
    const runs = await done(['runs', '--json'], { cwd: elsewhere });
    expect(JSON.parse(runs.stdout)).toEqual([expect.objectContaining({ id: 'op-1', status: 'running' })]);
  }, 180_000);

  it('control commands return at once when no worker serves the run, and say so (run id only, from another directory)', async () => {
    // A run on a queue no worker has ever polled (its CLI follows without a worker, then is interrupted).
    const idle = { SHEETBENCH_CONFIG: path.join(work, 'idle-config.json') };
    writeFileSync(
      idle.SHEETBENCH_CONFIG,
      JSON.stringify({ recalc: { engine: 'none' }, temporal: { taskQueue: 'op-idle' } }),
    );
    const follow = cli(
      [
        ...runArgs({
          dataset: SAMPLE,
          baseUrl: llm.url,
          model: 'scripted',
          runId: 'op-2',
          out: path.join(work, 'op2'),
        }),
        '--no-worker',
      ],
      { env: idle },
    );
    await waitUntil(() => follow.stderr.includes('run op-2:'), 60_000, 'op-2 started');
    await waitUntil(
      async () => (await done(['runs', '--json'], { cwd: elsewhere })).stdout.includes('"op-2"'),
      60_000,
      'op-2 visible',
    );
    follow.child.kill('SIGINT');
    expect(await follow.exit).toBe(EXIT.interrupted);
    const budget = await done(['budget', 'op-2', '--usd', '5'], { cwd: elsewhere, env: idle });
    expect(budget.code).toBe(0);
    expect(budget.stdout).toContain('run op-2: budget change recorded by the Temporal server');
    expect(budget.stdout).toContain(
      'no worker is serving run op-2 (nothing polls task queue op-idle): it takes effect when one starts',
    );
    const pause = await done(['pause', 'op-2'], { cwd: elsewhere, env: idle });
    expect(pause.code).toBe(0);
    expect(pause.stdout).toContain('run op-2: pause recorded by the Temporal server');
    expect(pause.stdout).toContain('no worker is serving run op-2');
    // `resume` follows the run the same way: Ctrl-C ends it and names the command again.
    const resume = cli(['resume', 'op-2', '--no-worker'], { cwd: elsewhere, env: idle });
    await waitUntil(() => resume.stderr.includes('following run op-2;'), 60_000, 'resume following op-2');
    resume.child.kill('SIGINT');
    expect(await resume.exit).toBe(EXIT.interrupted);
    expect(resume.stderr).toContain('resume with: sheetbench resume op-2');
    const cancel = await done(['cancel', 'op-2'], { cwd: elsewhere, env: idle });
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toContain('run op-2: cancellation recorded by the Temporal server');
    expect(cancel.stdout).toContain('no worker is serving run op-2');
    // A worker that starts later gets the queued requests in order: the budget change is applied, then the cancellation.
    const worker = cli(['worker', '--no-recalc'], { env: idle });
    try {
      await waitUntil(
        async () => {
          const status = await done(['status', 'op-2', '--json'], { cwd: elsewhere, env: idle });
          return status.code === 0 && JSON.parse(status.stdout).budgetUsd === 5;
        },
        120_000,
        'the queued budget applied by the new worker',
      );
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exit;
    }
  }, 300_000);

  it('resume by id from another directory finishes the run; the summary names the most common failure, one line per failed attempt', async () => {
    const resume = await done(['resume', 'op-1'], { cwd: elsewhere });
    expect(resume.code).toBe(0);
    expect(resume.stdout).toMatch(/scores \(3\/3 tasks\)/);
    expect(resume.stdout).toContain('tasks with failures: 1 {"llm":1}');
    expect(resume.stdout).toMatch(
      / {2}1 × llm: LLM call failed \(context_too_long\): .*maximum context length exceeded for task 1002/,
    );
    const failureLines = resume.stderr.split('\n').filter((l) => l.includes('failed:'));
    expect(failureLines.length).toBeGreaterThan(0);
    for (const line of failureLines)
      expect(line).toMatch(/^\[WARN\] op-1\/task\/1002: llmTurn attempt \d+ failed: LLM call failed/);
    expect(resume.stderr).not.toMatch(/^\s+at /m); // no stack traces
    const runs = JSON.parse((await done(['runs', '--json'], { cwd: elsewhere })).stdout) as { id: string }[];
    expect(runs.find((r) => r.id === 'op-1')).toEqual(
      expect.objectContaining({
        id: 'op-1',
        agent: 'single',
        model: 'scripted',
        status: 'completed',
        done: 3,
        total: 3,
        folder: path.join(work, 'op1'),
      }),
    );
    expect(runs.map((r) => r.id).sort()).toEqual(['op-1', 'op-2']);
    const report = await done(['report', 'op-1'], { cwd: elsewhere });
    expect(report.code, report.stderr).toBe(0);
    expect(existsSync(path.join(work, 'op1', 'report.md'))).toBe(true);
  }, 240_000);
});
