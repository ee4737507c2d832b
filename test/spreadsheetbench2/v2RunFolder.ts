/**
 * A SpreadsheetBench 2 run folder made from generated tasks (fixtures/make_v2_tasks.py) without an agent: each task's
 * output is copied from one of the generated output variants, then scored and recorded as a run records it
 * (scoreV2Attempt + results/<key>.json), so finalize, show, compare, the report and the pages read a real v2 run.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadV2Dataset, scoreV2Attempt, V2RunFiles, type V2TaskResult } from '../../benchmarks/spreadsheetbench2';
import { datasetFilesOf } from '../../benchmarks/spreadsheetbench2/scoring/scoreTask';
import { RunLayout } from '../../lib/runStore/runLayout';
import { taskKey } from '../../lib/runStore/taskRecord';
import { TokenUsage } from '../../lib/llm/usage';

export const V2_SETTING = 'scaffold';
export const V2_MODEL = 'scripted-model';

export interface V2RunSpec {
  runId: string;
  /** The dataset folder (a category folder or the parent of several). */
  dataset: string;
  /** The generated output variants folder (`<tmp>/outputs`). */
  variants: string;
  /** Variant per task id (default `exact`); `none` writes no output, a Buffer is written as the output. */
  outputOf?: (id: string) => string | Buffer;
}

export async function buildV2Run(runsDir: string, spec: V2RunSpec): Promise<string> {
  const dir = path.join(runsDir, spec.runId);
  const layout = new RunLayout(dir);
  const files = new V2RunFiles(dir, V2_SETTING, V2_MODEL);
  const tasks = (await loadV2Dataset(spec.dataset))!;
  mkdirSync(layout.resultsDir, { recursive: true });
  mkdirSync(files.outputsDir, { recursive: true });
  writeFileSync(
    layout.runManifestPath,
    JSON.stringify({
      runId: spec.runId,
      benchmark: 'spreadsheetbench2',
      edition: 'v2',
      agent: V2_SETTING,
      setting: V2_SETTING,
      datasetDir: spec.dataset,
      datasetVersion: 'sha256:fixture',
      scoringMode: 'official',
      createdAt: '2026-11-26T16:00:00.000Z',
      taskCount: tasks.length,
      llm: { provider: 'openai', model: V2_MODEL, temperature: 0 },
      agentSettings: { maxTurns: 50, maxRevisions: 0, previewRows: 0, promptVersion: 'fixture' },
      experimentHash: `hash-${spec.runId}`,
    }),
  );
  writeFileSync(layout.taskListPath, JSON.stringify(tasks));
  for (const task of tasks) {
    const key = taskKey(task.id);
    const source = spec.outputOf?.(key) ?? 'exact';
    const output = files.outputPath(key);
    if (Buffer.isBuffer(source)) writeFileSync(output, source);
    else if (source !== 'none') {
      const from = path.join(spec.variants, source, `${key}_output.xlsx`);
      if (existsSync(from)) copyFileSync(from, output);
    }
    const scored = await scoreV2Attempt({
      task,
      key,
      files: { ...datasetFilesOf(task, files.outputsDir), output },
      cellDiffsPath: files.cellDiffsPath(key),
    });
    const result: V2TaskResult = {
      taskId: key,
      id: task.id,
      ...scored,
      llmCalls: 3,
      usage: TokenUsage.zero(),
      costUsd: 0.001,
      stages: [
        {
          stage: 'scaffold',
          llmCalls: 3,
          usage: TokenUsage.zero(),
          costUsd: 0.001,
          wallMs: 1200,
          outcome: 'submitted',
        },
      ],
      wallMs: 1500,
    };
    writeFileSync(layout.taskResultPath(key), JSON.stringify(result));
  }
  return dir;
}
