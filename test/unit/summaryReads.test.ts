import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analysisSummaryLines } from '../../benchmarks/analysis/summaryLines';
import { dsbenchSummaryLines } from '../../benchmarks/dsbench/summaryLines';

function runDirWith(summary?: string | object): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'summary-read-'));
  if (summary !== undefined)
    writeFileSync(path.join(dir, 'summary.json'), typeof summary === 'string' ? summary : JSON.stringify(summary));
  return dir;
}

const line = { tasks: 2, soft: 0.5, hard: 0.5 };
/** A DSBench summary.json as the first DSBench version wrote it (no topFailures, floor, epochs). */
const DSBENCH_SUMMARY = {
  runId: 'ds-run',
  agent: 'dsbench-single',
  model: 'scripted-model',
  tasks: 2,
  scored: 2,
  failed: 0,
  overall: line,
  byType: { number: line },
  llmCalls: 4,
  usage: { inputTokens: 100, outputTokens: 20 },
  costUsd: 0,
  failureClasses: {},
  benchmark: 'dsbench',
  dsbench: {
    accuracy: 0.5,
    competitionAccuracy: 0.5,
    questions: 2,
    correct: 1,
    unparseableJudgments: 0,
    byCompetition: [],
    byAnswerType: { number: { questions: 2, correct: 1, accuracy: 0.5 } },
    judgeVsExactLetter: { questions: 0, agree: 0, agreement: null },
    costUsd: 0,
    timeSeconds: 3,
  },
};

const group = { passed: 1, scored: 2, successRate: 0.5, steps: 3, toolCalls: 2, tokens: 900, costUsd: 0 };
/** An analysis summary.json as written before grounding counts existed (no numbers/groundedShare). */
const OLD_ANALYSIS_SUMMARY = {
  benchmark: 'analysis',
  pattern: 'react',
  model: 'scripted-model',
  requests: 2,
  finished: 2,
  passed: 1,
  scored: 2,
  successRate: 0.5,
  skipped: [],
  failed: [],
  total: group,
  byLevel: { L1: group },
  byPattern: { react: group },
};

describe('DSBench summary.json read back', () => {
  it('loads a valid summary into its lines', async () => {
    const lines = await dsbenchSummaryLines(runDirWith(DSBENCH_SUMMARY));
    expect(lines[0]).toContain('accuracy (2/2 questions): 50.00% (1 correct)');
    expect(lines[1]).toContain('number: 50.00%');
  });
  it('has no lines before the run is summarized', async () => {
    expect(await dsbenchSummaryLines(runDirWith())).toEqual([]);
  });
  it('reports a summary missing its dsbench metrics, naming the file and the field', async () => {
    const dir = runDirWith({ ...DSBENCH_SUMMARY, dsbench: { accuracy: 'high' } });
    await expect(dsbenchSummaryLines(dir)).rejects.toThrow(
      new RegExp(`${path.join(dir, 'summary.json')}.*dsbench\\.accuracy`),
    );
  });
  it('reports a summary that is not JSON, naming the file', async () => {
    const dir = runDirWith('{"runId": "ds-run",');
    await expect(dsbenchSummaryLines(dir)).rejects.toThrow(path.join(dir, 'summary.json'));
  });
});

describe('analysis summary.json read back', () => {
  it('loads a summary written before grounding counts', async () => {
    const lines = await analysisSummaryLines(runDirWith(OLD_ANALYSIS_SUMMARY));
    expect(lines[0]).toBe('success (2/2 requests scored, pattern react): 1 passed, 50.0%');
    expect(lines[1]).toContain('grounded -');
  });
  it('reports a corrupt summary, naming the file and the field', async () => {
    const dir = runDirWith({ ...OLD_ANALYSIS_SUMMARY, byLevel: { L1: { passed: 'one' } } });
    await expect(analysisSummaryLines(dir)).rejects.toThrow(
      new RegExp(`${path.join(dir, 'summary.json')}.*byLevel\\.L1\\.passed`),
    );
  });
});
