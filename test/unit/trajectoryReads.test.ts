import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StageRecord } from '../../contracts/taskResult';
import { trajectoryOf } from '../../benchmarks/spreadsheetbench/report/trajectory';

const STAGES: StageRecord[] = [
  { stage: 'generate', llmCalls: 1, usage: { inputTokens: 10, outputTokens: 5 }, costUsd: 0, wallMs: 3, outcome: 'ok' },
];

function taskDir(files: Record<string, string | object>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trajectory-read-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

describe('SpreadsheetBench task page: execution and conversation records read back', () => {
  it('loads records as an older version wrote them (no label, duration or reasoning)', async () => {
    const dir = taskDir({
      'conversations/main.json': [
        { role: 'user', content: 'do it' },
        { role: 'assistant', content: '```python\nprint(1)\n```' },
      ],
      'executions/generate.json': { code: 'print(1)', stdout: '1\n', stderr: '' },
    });
    const [step] = await trajectoryOf(dir, STAGES);
    expect(step.exchanges).toHaveLength(1);
    expect(step.executions).toEqual([{ label: 'generate', code: 'print(1)', stdout: '1\n', stderr: '' }]);
  });
  it('has no exchanges or executions when the folders are not there', async () => {
    const [step] = await trajectoryOf(taskDir({}), STAGES);
    expect(step.exchanges).toEqual([]);
    expect(step.executions).toEqual([]);
  });
  it('reports a corrupt conversation, naming the file', async () => {
    const dir = taskDir({ 'conversations/main.json': { role: 'user' } });
    await expect(trajectoryOf(dir, STAGES)).rejects.toThrow(path.join(dir, 'conversations/main.json'));
  });
  it('reports a corrupt execution record, naming the file', async () => {
    const dir = taskDir({ 'executions/generate.json': '{"code": "pri' });
    await expect(trajectoryOf(dir, STAGES)).rejects.toThrow(
      new RegExp(`${path.join(dir, 'executions/generate.json')}: not valid JSON`),
    );
  });
});
