/**
 * Abuse case: the solution code plants, as its output workbook, a symlink to a host file outside its work dir (an
 * answer workbook whose path it guessed). The host must not copy that file in as the output: the output is refused as
 * not a regular file (a link), with an error naming the task and test case, and the execution is still recorded.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { configSchema, type Config } from '../../config/schema';
import {
  executeActivities,
  type ExecuteSolutionInput,
  type ExecuteSolutionResult,
} from '../../activities/spreadsheetbench/execute';
import {
  sessionActivities,
  type SessionExecuteInput,
  type SessionExecuteResult,
} from '../../activities/spreadsheetbench/sessions';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';
import { modelPaths } from '../../benchmarks/spreadsheetbench/agents/officialPaths';
import { createSampleRun } from '../helpers/sampleRun';
import { createSandboxFactory, type SandboxFactory } from '../../lib/sandbox/index';
import { testConfig } from '../sandbox/helpers';

describe('executeSolution: an output planted as a symlink to a host file', () => {
  let root: string;
  let config: Config;
  let runDir: string;
  let secret: string;
  let factory: SandboxFactory;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sb-output-link-'));
    chmodSync(root, 0o755);
    secret = path.join(root, '1_1001_answer.xlsx');
    writeFileSync(secret, 'SECRET-ANSWER-CONTENT');
    config = configSchema.parse({ sandbox: { workRoot: path.join(root, 'work') } });
    factory = await createSandboxFactory({ ...testConfig('bwrap'), forkServer: false }, { warmModules: [] });
    runDir = await createSampleRun(config, 'single', 'output-link', 'sb-output-link-run-');
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    if (runDir) rmSync(runDir, { recursive: true, force: true });
  });

  const execute = (input: ExecuteSolutionInput): Promise<ExecuteSolutionResult> =>
    new MockActivityEnvironment().run(
      executeActivities({ config, sandboxFactory: async () => factory }).executeSolution,
      input,
    );

  for (const outputFolder of [undefined, 'candidates/c1']) {
    it(`refuses the link, copies nothing, records the execution (${outputFolder ?? 'official output'})`, async () => {
      const ctx = await sheetRun(runDir);
      const output = modelPaths(ctx.task('1001'), ctx.official.outputsName, 1).output;
      const code = `import os\nos.symlink(${JSON.stringify(secret)}, ${JSON.stringify(output)})\nprint('planted')`;
      const label = `link-${outputFolder ? 'kept' : 'final'}`;
      const result = await execute({ runDir, taskId: '1001', testCase: 1, code, label, outputFolder });

      expect(result.outputProduced).toBe(false);
      expect(result.keptAt).toBeUndefined();
      expect(result.error).toMatch(/task 1001, test case 1: the output 1_1001_output\.xlsx is a link; not taken/);
      const official = ctx.official.outputPath('1001', 1);
      const kept = path.join(ctx.layout.taskDir('1001'), outputFolder ?? '', '1_1001_output.xlsx');
      for (const file of [official, kept]) {
        expect(existsSync(file)).toBe(false);
      }
      expect(readFileSync(secret, 'utf8')).toBe('SECRET-ANSWER-CONTENT');
      const record = JSON.parse(
        readFileSync(path.join(ctx.layout.taskDir('1001'), 'executions', `${label}.json`), 'utf8'),
      ) as { outputProduced: boolean; stdout: string; error: string };
      expect(record.outputProduced).toBe(false);
      expect(record.stdout).toContain('planted');
      expect(record.error).toMatch(/is a link; not taken/);
    }, 60_000);
  }

  it('still takes a regular output file', async () => {
    const ctx = await sheetRun(runDir);
    const output = modelPaths(ctx.task('1001'), ctx.official.outputsName, 1).output;
    const code = `open(${JSON.stringify(output)}, 'wb').write(b'PRODUCED')`;
    const result = await execute({ runDir, taskId: '1001', testCase: 1, code, label: 'regular' });
    expect(result.outputProduced).toBe(true);
    expect(result.error).toBe('');
    expect(readFileSync(ctx.official.outputPath('1001', 1), 'utf8')).toBe('PRODUCED');
  }, 60_000);

  it('a conversation kernel (executeInSession): the same link refused, the session still usable', async () => {
    const ctx = await sheetRun(runDir);
    const output = modelPaths(ctx.task('1001'), ctx.official.outputsName, 1).output;
    const activities = sessionActivities({ config, sandboxFactory: async () => factory });
    const run = (input: SessionExecuteInput): Promise<SessionExecuteResult> =>
      new MockActivityEnvironment().run(activities.executeInSession, input);
    try {
      const code = `import os\nos.symlink(${JSON.stringify(secret)}, ${JSON.stringify(output)})`;
      const base = { runDir, taskId: '1001', conversation: 'c', code };
      const planted = await run({ ...base, round: 0, label: 'session-link' });
      expect(planted.outputProduced).toBe(false);
      expect(planted.error).toMatch(/task 1001, test case 1: the output 1_1001_output\.xlsx is a link; not taken/);
      expect(existsSync(ctx.official.outputPath('1001', 1))).toBe(false);
      const fixed = `import os\nos.remove(${JSON.stringify(output)})\nopen(${JSON.stringify(output)}, 'wb').write(b'OK')`;
      const next = await run({ ...base, code: fixed, round: 1, label: 'session-regular' });
      expect(next.outputProduced).toBe(true);
      expect(readFileSync(ctx.official.outputPath('1001', 1), 'utf8')).toBe('OK');
    } finally {
      await activities.closeSessions({ runDir, taskId: '1001' });
    }
  }, 60_000);
});
