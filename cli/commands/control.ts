import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { pauseSignal, queueBudgetSignal, setBudgetUpdate } from '../../contracts/run';
import { namesInFolder, writeJsonAtomic } from '../../lib/runStore/files';
import { readRequiredJson } from '../../lib/json';
import { taskResultSchema } from '../../contracts/taskResultSchema';
import { INFRASTRUCTURE_FAILURES } from '../../contracts/taskResult';
import { startRunWorkflow } from '../../client/startRun';
import { formatProgress } from '../progressBar';
import { CliError, EXIT } from '../exitCodes';
import { unpricedModelsOf } from '../../client/runPrices';
import { followRun, openRun } from './run';
import { noWorkerNote, workerServing } from '../workerPresence';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** Live control of a run through signals and updates: pause, cancel, budget, retry. (`resume` is in run.ts.) */
export function registerControlCommands(program: Command): void {
  program
    .command('pause <run>')
    .description('pause a run: no new tasks or LLM calls start; `sheetbench resume` continues it')
    .option('--reason <text>', 'shown in status and the Web UI', 'paused by operator')
    .action(async (run: string, flags: { reason: string }) => {
      const { handle, client } = await openRun(run);
      const { serving, taskQueue } = await workerServing(client, handle);
      await handle.signal(pauseSignal, flags.reason);
      out(`run ${handle.workflowId}: pause recorded by the Temporal server`);
      if (!serving) out(noWorkerNote(handle.workflowId, taskQueue));
      await client.connection.close();
    });

  program
    .command('cancel <run>')
    .description('cancel a run and its running tasks (their sandboxes are disposed)')
    .action(async (run: string) => {
      const { handle, client } = await openRun(run);
      const { serving, taskQueue } = await workerServing(client, handle);
      await handle.cancel();
      out(`run ${handle.workflowId}: cancellation recorded by the Temporal server`);
      if (!serving) out(noWorkerNote(handle.workflowId, taskQueue));
      await client.connection.close();
    });

  program
    .command('budget <run>')
    .description("set a run's budget (must be above what is already spent); a run paused by its budget resumes")
    .option('--usd <x>', 'dollar cap')
    .option('--tokens <n>', 'token cap')
    .action(async (run: string, flags: { usd?: string; tokens?: string }) => {
      if (flags.usd === undefined && flags.tokens === undefined)
        throw new CliError('give --usd and/or --tokens', EXIT.usage);
      const { handle, client, runDir } = await openRun(run);
      try {
        const change = { usd: positive(flags.usd), tokens: positive(flags.tokens) };
        const unpriced = change.usd !== undefined ? await unpricedModelsOf(runDir) : [];
        if (unpriced.length)
          process.stderr.write(
            `warning: no price is known for ${unpriced.join(', ')} (set llm.prices for it in the workers' config): its calls count as $0, so a dollar budget cannot stop them\n`,
          );
        const { serving, taskQueue } = await workerServing(client, handle);
        if (!serving) {
          // No worker to validate an update now: the server keeps a signal until one starts, which then applies it.
          await handle.signal(queueBudgetSignal, change);
          out(`run ${handle.workflowId}: budget change recorded by the Temporal server`);
          out(
            noWorkerNote(
              handle.workflowId,
              taskQueue,
              'it takes effect when one starts (a budget not above the spend is then ignored, as `sheetbench status` shows)',
            ),
          );
          return;
        }
        const update = handle.executeUpdate(setBudgetUpdate, { args: [change] });
        const p = await Promise.race([update, unanswered(BUDGET_ANSWER_MS)]);
        if (!p) {
          update.catch(() => undefined); // abandoned: its outcome is reported as not confirmed just below
          throw new CliError(
            `budget change not confirmed: no worker of run ${handle.workflowId} (task queue ${taskQueue}) answered within ${BUDGET_ANSWER_MS / 1000} s. ` +
              'The server keeps the request until a worker takes it or the server restarts; check with `sheetbench status`.',
            EXIT.noWorker,
          );
        }
        out(formatProgress(p));
      } catch (err) {
        if (err instanceof WorkflowUpdateFailedError)
          throw new CliError(`budget refused: ${err.cause?.message ?? err.message}`, EXIT.usage);
        throw err;
      } finally {
        await client.connection.close();
      }
    });

  program
    .command('retry <run>')
    .description(
      're-run the tasks that failed for infrastructure reasons (LLM outage, sandbox lost, ...), then re-score the run',
    )
    .requiredOption('--failed', 'only tasks whose failure class is an infrastructure one')
    .option('--no-worker', 'do not start an in-process worker')
    .action(async (run: string, flags: { worker: boolean }) => {
      const { client, session, config, runDir, manifest } = await openRun(run);
      const failed = await infrastructureFailures(runDir);
      if (!failed.length) {
        out('no task failed for an infrastructure reason');
        return client.connection.close();
      }
      const attempt = (await readdir(runDir)).filter((f) => /^retry-\d+\.json$/.test(f)).length + 1;
      const taskIdsFile = `retry-${attempt}.json`;
      await writeJsonAtomic(path.join(runDir, taskIdsFile), failed);
      out(`retrying ${failed.length} task(s): ${failed.join(', ')}`);
      const handle = await startRunWorkflow(client, config, manifest, runDir, {
        workflowId: `${manifest.runId}/retry-${attempt}`,
        taskIdsFile,
        taskCount: failed.length,
        childSuffix: `retry-${attempt}`,
      });
      await followRun(client, session, config, handle, runDir, flags.worker);
    });
}

async function infrastructureFailures(runDir: string): Promise<string[]> {
  const dir = path.join(runDir, 'results');
  const files = await namesInFolder(dir);
  const results = await Promise.all(
    files.filter((f) => f.endsWith('.json')).map((f) => readRequiredJson(path.join(dir, f), taskResultSchema)),
  );
  return results.filter((r) => r.failure && INFRASTRUCTURE_FAILURES.includes(r.failure.class)).map((r) => r.taskId);
}

/** A worker that polled the queue a minute ago may be gone: a budget change waits this long for an answer. */
const BUDGET_ANSWER_MS = 30_000;

function unanswered(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

function positive(v?: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`expected a positive number, got ${v}`, EXIT.usage);
  return n;
}
