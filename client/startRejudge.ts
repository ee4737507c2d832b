import path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Config } from '../config/schema';
import type { RunManifest } from '../lib/runStore/manifest';
import { writeJsonAtomic } from '../lib/runStore/files';
import { z } from 'zod';
import { readRequiredJson } from '../lib/json';
import { questionsToRejudge } from '../benchmarks/dsbench/rejudge';
import { dsbenchQuestionSchema } from '../benchmarks/dsbench/dataset';
import { dsbenchRejudge } from '../workflows/dsbench/dsbenchRejudge';

export interface StartedRejudge {
  handle: WorkflowHandle<typeof dsbenchRejudge>;
  count: number;
}

/** Starts a rejudge of a DSBench run's recorded answers (no call to the answering model); null when nothing needs it. */
export async function startRejudge(
  client: Client,
  config: Config,
  manifest: RunManifest,
  runDir: string,
  opts: { judgeModel?: string; all?: boolean; tag?: string },
): Promise<StartedRejudge | null> {
  if (manifest.benchmark !== 'dsbench')
    throw new Error(`run ${manifest.runId} is a ${manifest.benchmark} run: only DSBench runs have judgments`);
  const questions = await readRequiredJson(path.join(runDir, 'tasks.json'), z.array(dsbenchQuestionSchema));
  const ids = await questionsToRejudge(runDir, questions, opts.all || opts.judgeModel !== undefined);
  if (!ids.length) return null;
  const tag = opts.tag ?? `rejudge-${new Date().toISOString().replace(/[-:.]/g, '')}`;
  const taskIdsFile = `${tag}.json`;
  await writeJsonAtomic(path.join(runDir, taskIdsFile), ids);
  const handle = await client.workflow.start(dsbenchRejudge, {
    workflowId: `${manifest.runId}/${tag}`,
    taskQueue: config.temporal.taskQueue,
    args: [
      {
        runId: manifest.runId,
        runDir,
        taskIdsFile,
        count: ids.length,
        tag,
        judgeModel: opts.judgeModel,
        concurrency: config.run.concurrency,
      },
    ],
  });
  return { handle, count: ids.length };
}
