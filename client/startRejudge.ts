import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import type { Config } from '../config/schema';
import type { RunManifest } from '../lib/runStore/manifest';
import { writeJsonAtomic } from '../lib/runStore/files';
import {
  recordRejudgeEnd,
  recordRejudgeStart,
  readRejudgeTaskList,
  rejudgeTaskListPath,
  unfinishedRejudge,
  type UnfinishedRejudge,
} from '../lib/runStore/rejudgeRecord';
import { BENCHMARKS, benchmarkNamed } from '../benchmarks';
import type { Benchmark } from '../benchmarks/benchmark';
import type { RejudgeInput } from '../contracts/run';
import { failoverInput, failoverStartOptions } from '../lib/temporal/failover';

export interface StartedRejudge {
  handle: WorkflowHandle;
  count: number;
  /** The rejudge's tag: its workflow id's tail and the name of its task list (`<tag>.json`) in the run folder. */
  tag: string;
  /** An unfinished rejudge (killed mid-way) taken up again under its tag, instead of a new one. */
  resumed?: boolean;
}

/** A run of a benchmark whose answers are not judged (nothing to judge again). */
export class NotJudgedError extends Error {
  override name = 'NotJudgedError';
}

/** A rejudge asked with another judge model while one of the run's rejudges is unfinished. */
export class UnfinishedRejudgeError extends Error {
  override name = 'UnfinishedRejudgeError';
}

type Rejudge = NonNullable<Benchmark['rejudge']>;

/**
 * Starts a rejudge of a run's recorded answers (no call to the answering model), by the workflow its benchmark names;
 * null when nothing needs it. Its task list and `started` record are written before its workflow starts
 * (lib/runStore/rejudgeRecord.ts). A rejudge of the run that started and never finished (killed mid-way) is resumed
 * instead, whatever the options (a different judge model is refused: its verdicts would mix two models under one tag).
 */
export async function startRejudge(
  client: Client,
  config: Config,
  manifest: RunManifest,
  runDir: string,
  opts: { judgeModel?: string; all?: boolean; tag?: string },
): Promise<StartedRejudge | null> {
  const benchmark = benchmarkNamed(manifest.benchmark);
  if (!benchmark.rejudge) {
    const judged = BENCHMARKS.filter((b) => b.rejudge).map((b) => b.title);
    throw new NotJudgedError(
      `run ${manifest.runId} is a ${benchmark.title} run: only ${judged.join(', ')} runs have judgments`,
    );
  }
  const unfinished = await unfinishedRejudge(runDir);
  if (unfinished)
    return resumeRejudge(client, config, { manifest, runDir, rejudge: benchmark.rejudge }, unfinished, opts.judgeModel);
  const ids = await benchmark.rejudge.tasksToRejudge(runDir, opts.all || opts.judgeModel !== undefined);
  if (!ids.length) return null;
  const tag = opts.tag ?? `rejudge-${new Date().toISOString().replace(/[-:.]/g, '')}`;
  await writeJsonAtomic(rejudgeTaskListPath(runDir, tag), ids);
  const requested = benchmark.rejudge.requestedJudge({ config, manifest, judgeModel: opts.judgeModel });
  await recordRejudgeStart(runDir, tag, { requested, judgeModel: opts.judgeModel });
  const handle = await startWorkflow(
    client,
    config,
    benchmark.rejudge,
    rejudgeInput(manifest, runDir, config, tag, ids.length, opts.judgeModel),
  );
  return { handle, count: ids.length, tag };
}

function rejudgeInput(
  manifest: RunManifest,
  runDir: string,
  config: Config,
  tag: string,
  count: number,
  judgeModel: string | undefined,
): RejudgeInput {
  return {
    runId: manifest.runId,
    runDir,
    taskIdsFile: `${tag}.json`,
    count,
    tag,
    judgeModel,
    concurrency: config.run.concurrency,
    failover: failoverInput(config),
  };
}

const startWorkflow = (client: Client, config: Config, rejudge: Rejudge, input: RejudgeInput) =>
  client.workflow.start(rejudge.workflow, {
    workflowId: `${input.runId}/${input.tag}`,
    taskQueue: config.temporal.taskQueue,
    args: [input],
    ...failoverStartOptions(config),
  });

/**
 * The unfinished rejudge `tag` taken up again: its workflow awaited where Temporal has it running or completed (the
 * kill came after it ended, before its end was recorded); started again under the same tag and task list where it
 * closed without a result or Temporal does not know it (killed before it started): its calls keep their call keys, so
 * a reply cached before the kill is not paid for again.
 */
async function resumeRejudge(
  client: Client,
  config: Config,
  run: { manifest: RunManifest; runDir: string; rejudge: Rejudge },
  unfinished: UnfinishedRejudge,
  judgeModel: string | undefined,
): Promise<StartedRejudge> {
  const { manifest, runDir } = run;
  const { tag } = unfinished;
  if (judgeModel !== undefined && judgeModel !== unfinished.judgeModel)
    throw new UnfinishedRejudgeError(
      `run ${manifest.runId} has an unfinished rejudge ${tag} (judge model ${unfinished.judgeModel ?? 'of its config'}): ` +
        `run \`sheetbench rejudge ${manifest.runId}\` without --judge-model to finish it first`,
    );
  const count = (await readRejudgeTaskList(runDir, tag)).length;
  const handle = client.workflow.getHandle(`${manifest.runId}/${tag}`);
  const status = await handle.describe().then(
    (d) => d.status.name,
    (err: unknown) => {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    },
  );
  if (status === 'RUNNING' || status === 'COMPLETED') return { handle, count, tag, resumed: true };
  const input = rejudgeInput(manifest, runDir, config, tag, count, unfinished.judgeModel);
  return { handle: await startWorkflow(client, config, run.rejudge, input), count, tag, resumed: true };
}

/** After the rejudge `tag` finished: its `finished` record, with the settings its tasks' judgments record. */
export async function recordRejudgeSettings(manifest: RunManifest, runDir: string, tag: string): Promise<void> {
  const rejudge = benchmarkNamed(manifest.benchmark).rejudge;
  if (rejudge) await recordRejudgeEnd(runDir, tag, (taskId) => rejudge.judgedWith(runDir, taskId));
}
