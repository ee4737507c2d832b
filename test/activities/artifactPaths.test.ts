import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { withArtifactPaths } from '../../activities/artifactPaths';

/** Two "hosts" mount one store at different places; a third mounts nothing. */
function store() {
  const base = mkdtempSync(path.join(os.tmpdir(), 'sb-roots-'));
  const hostA = path.join(base, 'a', 'runs');
  const hostB = path.join(base, 'b');
  mkdirSync(path.join(hostA, 'run-1', 'outputs', 's_m'), { recursive: true });
  writeFileSync(path.join(hostA, 'run-1', 'run.json'), '{}');
  return { base, hostA, hostB };
}

const seen: unknown[] = [];
const activities = {
  async readRun(input: { runDir: string; taskId: string }) {
    seen.push(input);
    return { outputPaths: [path.join(input.runDir, 'outputs', 's_m', `1_${input.taskId}_output.xlsx`)] };
  },
  async listIds(input: { runDir: string }) {
    seen.push(input);
    return ['1', '2'];
  },
  async recalcWorkbook(input: { path: string }) {
    seen.push(input);
    return { ok: true };
  },
  async recalcWorkbooks(input: { paths: string[] }) {
    seen.push(input);
    return [{ ok: true }];
  },
};

const env = () =>
  new MockActivityEnvironment({ startToCloseTimeoutMs: 60_000, currentAttemptScheduledTimestampMs: Date.now() });
const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err as ApplicationFailure,
  );

describe('artifact paths at the activity boundary', () => {
  it("resolves a relative run folder under this worker's root and hands outputs back relative", async () => {
    const { hostA } = store();
    const acts = withArtifactPaths(activities, { root: hostA });
    const res = await env().run(acts.readRun, { runDir: 'run-1', taskId: '7' });
    expect(seen.at(-1)).toEqual({ runDir: path.join(hostA, 'run-1'), taskId: '7' });
    expect(res).toEqual({ outputPaths: ['run-1/outputs/s_m/1_7_output.xlsx'] });
    await env().run(acts.recalcWorkbook, { path: 'run-1/outputs/s_m/1_7_output.xlsx' });
    expect(seen.at(-1)).toEqual({ path: path.join(hostA, 'run-1', 'outputs', 's_m', '1_7_output.xlsx') });
    await env().run(acts.recalcWorkbooks, {
      paths: ['run-1/outputs/s_m/1_7_output.xlsx', 'run-1/outputs/s_m/2_7_output.xlsx'],
    });
    expect(seen.at(-1)).toEqual({
      paths: [1, 2].map((n) => path.join(hostA, 'run-1', 'outputs', 's_m', `${n}_7_output.xlsx`)),
    });
    expect(await env().run(acts.listIds, { runDir: 'run-1' })).toEqual(['1', '2']); // results that are not records pass as they are
  });

  it('passes absolute run folders (old histories) through unchanged', async () => {
    const { hostA } = store();
    const acts = withArtifactPaths(activities, { root: '/somewhere/else' });
    const abs = path.join(hostA, 'run-1');
    const res = await env().run(acts.readRun, { runDir: abs, taskId: '7' });
    expect(seen.at(-1)).toEqual({ runDir: abs, taskId: '7' });
    expect(res).toEqual({ outputPaths: [path.join(abs, 'outputs', 's_m', '1_7_output.xlsx')] });
  });

  it('a worker whose root does not hold the run folder fails retryably, naming root, folder and the fix', async () => {
    const { hostB } = store();
    const acts = withArtifactPaths(activities, { root: hostB, waitForFolderMs: 300 });
    const calls = seen.length;
    const err = await failureOf(env().run(acts.readRun, { runDir: 'run-1', taskId: '7' }));
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err.nonRetryable).toBe(false);
    expect(err.type).toBe('ArtifactsRootMissing');
    expect(err.message).toContain(`artifacts root ${hostB} does not hold run-1`);
    expect(err.message).toContain(path.join(hostB, 'run-1', 'run.json'));
    expect(err.message).toContain('SHEETBENCH_ARTIFACTS_ROOT');
    expect(seen.length).toBe(calls); // the activity itself never ran against the wrong folder
  });

  it('a worker without any root fails retryably on a relative run folder', async () => {
    const err = await failureOf(env().run(withArtifactPaths(activities, {}).readRun, { runDir: 'run-1', taskId: '7' }));
    expect(err.nonRetryable).toBe(false);
    expect(err.message).toMatch(/this worker has none: set artifacts.root or SHEETBENCH_ARTIFACTS_ROOT/);
  });

  it('waits for the store to be mounted within an attempt and then serves the run', async () => {
    const { base, hostA } = store();
    const late = path.join(base, 'late');
    const acts = withArtifactPaths(activities, { root: late, waitForFolderMs: 20_000 });
    const pending = env().run(acts.readRun, { runDir: 'run-1', taskId: '8' });
    setTimeout(() => {
      mkdirSync(late, { recursive: true });
      writeFileSync(path.join(late, 'run-1'), ''); // wrong: a file, not the folder — still waiting
    }, 200);
    setTimeout(() => {
      rmSync(path.join(late, 'run-1'));
      symlinkSync(path.join(hostA, 'run-1'), path.join(late, 'run-1'));
    }, 1_500);
    const res = await pending;
    expect(res).toEqual({ outputPaths: ['run-1/outputs/s_m/1_8_output.xlsx'] });
  });
});
