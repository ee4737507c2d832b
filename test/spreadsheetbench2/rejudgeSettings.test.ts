/**
 * What a rejudge judged with, recorded beside its task list (`<tag>.judge.json`): a `started` record before its first
 * verdict (what it was asked to judge with, its tasks), found as unfinished until the `finished` one replaces it with
 * the distinct settings its tasks' judgments record, with their tasks, and the tasks judged without a call; a missing
 * task list is named.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChartJudgment } from '../../benchmarks/spreadsheetbench2/visualization/chartJudgment';
import { v2JudgeSettingsOf } from '../../benchmarks/spreadsheetbench2/visualization/judgeSettings';
import { v2JudgedWith, v2RequestedJudge } from '../../benchmarks/spreadsheetbench2/visualization/rejudgeSettings';
import {
  recordRejudgeEnd,
  recordRejudgeStart,
  rejudgeRecordPath,
  unfinishedRejudge,
} from '../../lib/runStore/rejudgeRecord';
import { configSchema, type Config } from '../../config/schema';

/** The two steps as a SpreadsheetBench 2 rejudge takes them (client/startRejudge.ts). */
const recordRejudgeSettings = (dir: string, tag: string) =>
  recordRejudgeEnd(dir, tag, (taskId) => v2JudgedWith(dir, taskId));
const recordV2RejudgeStart = (dir: string, tag: string, request: { config: Config; judgeModel?: string }) =>
  recordRejudgeStart(dir, tag, { requested: v2RequestedJudge(request), judgeModel: request.judgeModel });

const runDir = mkdtempSync(path.join(os.tmpdir(), 'sb2-rejudge-settings-'));
afterAll(() => rmSync(runDir, { recursive: true, force: true }));

describe('the settings a rejudge judged with', () => {
  it('groups the tasks by the settings their judgments record, and lists those judged without a call', async () => {
    const vision = configSchema.parse({
      visionJudge: { baseUrl: 'https://judge.example/v1?key=secret', model: 'm1' },
    }).visionJudge;
    const m1 = v2JudgeSettingsOf(vision);
    const m2 = v2JudgeSettingsOf(vision, 'm2');
    await writeChartJudgment(runDir, { taskId: 'a', verdict: 'judged', accuracy: 1, judge: m1 });
    await writeChartJudgment(runDir, { taskId: 'b', verdict: 'judged', accuracy: 0, judge: m2 });
    await writeChartJudgment(runDir, { taskId: 'c', verdict: 'judged', accuracy: 1, judge: m1 });
    await writeChartJudgment(runDir, { taskId: 'd', verdict: 'no_charts', accuracy: 0, message: 'task d: no chart' });
    writeFileSync(path.join(runDir, 'rejudge-t1.json'), JSON.stringify(['a', 'b', 'c', 'd', 'e']));
    const record = await recordRejudgeSettings(runDir, 'rejudge-t1');
    expect(JSON.parse(readFileSync(rejudgeRecordPath(runDir, 'rejudge-t1'), 'utf8'))).toEqual(record);
    expect(record).toMatchObject({
      tag: 'rejudge-t1',
      settings: [
        { judge: m1, tasks: ['a', 'c'] },
        { judge: m2, tasks: ['b'] },
      ],
      withoutCall: ['d', 'e'],
    });
    // The endpoint by its host only, never its query (a key there stays out of the record).
    expect(readFileSync(rejudgeRecordPath(runDir, 'rejudge-t1'), 'utf8')).not.toContain('secret');
    expect(m1.baseUrlHost).toBe('judge.example');
  });

  it('names a rejudge whose task list is missing', async () => {
    await expect(recordRejudgeSettings(runDir, 'rejudge-none')).rejects.toThrow(/rejudge-none\.json/);
    await expect(recordV2RejudgeStart(runDir, 'rejudge-none', { config: configSchema.parse({}) })).rejects.toThrow(
      /rejudge-none\.json/,
    );
  });

  it('a started rejudge is unfinished until its end is recorded, which keeps what it was asked', async () => {
    const dir = mkdtempSync(path.join(runDir, 'started-'));
    const config = configSchema.parse({ visionJudge: { baseUrl: 'https://judge.example/v1', model: 'm1' } });
    writeFileSync(path.join(dir, 'rejudge-t2.json'), JSON.stringify(['a']));
    expect(await unfinishedRejudge(dir)).toBeUndefined();
    const started = await recordV2RejudgeStart(dir, 'rejudge-t2', { config, judgeModel: 'm2' });
    expect(started).toMatchObject({
      tag: 'rejudge-t2',
      state: 'started',
      requested: v2JudgeSettingsOf(config.visionJudge, 'm2'),
      judgeModel: 'm2',
      tasks: ['a'],
      settings: [],
    });
    expect(started.recordedAt).toBeUndefined();
    expect(await unfinishedRejudge(dir)).toEqual({ tag: 'rejudge-t2', judgeModel: 'm2', tasks: ['a'] });
    await writeChartJudgment(dir, {
      taskId: 'a',
      verdict: 'judged',
      accuracy: 1,
      judge: v2JudgeSettingsOf(config.visionJudge, 'm2'),
    });
    const finished = await recordRejudgeSettings(dir, 'rejudge-t2');
    expect(finished).toMatchObject({
      state: 'finished',
      startedAt: started.startedAt,
      requested: started.requested,
      judgeModel: 'm2',
      settings: [{ judge: v2JudgeSettingsOf(config.visionJudge, 'm2'), tasks: ['a'] }],
    });
    expect(await unfinishedRejudge(dir)).toBeUndefined();
  });

  it('a record written before the started step is a finished one', async () => {
    const dir = mkdtempSync(path.join(runDir, 'old-'));
    writeFileSync(
      rejudgeRecordPath(dir, 'rejudge-old'),
      JSON.stringify({ tag: 'rejudge-old', recordedAt: '2026-11-20T00:00:00.000Z', settings: [], withoutCall: ['a'] }),
    );
    expect(await unfinishedRejudge(dir)).toBeUndefined();
  });
});
