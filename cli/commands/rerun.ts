import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { COPILOT_STAGES } from '../../benchmarks/spreadsheetbench/agents/sheetcopilot/stages';
import { rerunTask, type RerunRequest } from '../../client/rerunTask';
import { loadConfig } from '../../config/load';
import type { TaskResult } from '../../contracts/taskResult';
import { readManifest, type RunManifest } from '../../lib/runStore/manifest';
import { connectClient } from '../../lib/temporal/connection';
import { connectWorkerConnection } from '../../workers/connection';
import { createWorkers } from '../../workers/createWorkers';
import { resolveTemporal } from '../temporalSession';
import { locateRun } from '../runRef';
import { CliError, EXIT } from '../exitCodes';

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Agents whose stages can be re-run from a recorded point. */
const RESETTABLE: Record<string, readonly string[]> = { sheetcopilot: COPILOT_STAGES };

export function registerRerunCommand(program: Command): void {
  program
    .command('rerun <run>')
    .description(
      're-execute one task from stage K, reusing the recorded outputs of the stages before K (no new LLM calls for them)',
    )
    .requiredOption('--task <id>', 'task id')
    .requiredOption('--from-stage <k>', 'first stage to recompute (sheetcopilot: 1 observe … 6 final)')
    .option('--prompts <dir>', 'folder of prompt template files (<template>.txt) replacing the built-in ones')
    .option('--no-worker', 'do not start an in-process worker')
    .action(async (run: string, flags: { task: string; fromStage: string; prompts?: string; worker: boolean }) => {
      const config = loadConfig();
      const session = await resolveTemporal(config, log);
      const client = await connectClient(session);
      const runDir = await locateRun(run, client, config.artifacts.root);
      const workers = flags.worker
        ? await createWorkers(await connectWorkerConnection(session), {
            ...config,
            temporal: { ...config.temporal, namespace: session.namespace },
          })
        : undefined;
      const running = workers?.run();
      try {
        const request = { runDir, taskId: flags.task, fromStage: Number(flags.fromStage), promptDir: flags.prompts };
        checkRerun(await readManifest(runDir), request);
        const result = await rerunTask(client, config, request);
        process.stdout.write(`${formatStages(result)}\n`);
      } finally {
        await workers?.shutdown();
        await running;
        await client.connection.close();
      }
    });
}

function checkRerun(manifest: RunManifest, req: RerunRequest): void {
  const stages = RESETTABLE[manifest.agent];
  if (!stages)
    throw new CliError(
      `agent ${manifest.agent} has no resettable stages (only: ${Object.keys(RESETTABLE).join(', ')})`,
      EXIT.usage,
    );
  if (!Number.isInteger(req.fromStage) || req.fromStage < 1 || req.fromStage > stages.length) {
    throw new CliError(
      `--from-stage must be 1..${stages.length} (${stages.map((s, i) => `${i + 1} ${s}`).join(', ')})`,
      EXIT.usage,
    );
  }
  if (!existsSync(path.join(req.runDir, 'tasks', req.taskId)))
    throw new CliError(`task ${req.taskId} has no records in ${req.runDir}`, EXIT.notFound);
  if (req.promptDir && !existsSync(req.promptDir))
    throw new CliError(`prompt folder ${req.promptDir} does not exist`, EXIT.usage);
}

function formatStages(result: TaskResult): string {
  const rows = result.stages.map(
    (s) =>
      `  ${s.stage.padEnd(12)} ${String(s.llmCalls).padStart(3)} calls ${String(s.usage.inputTokens + s.usage.outputTokens).padStart(7)} tok ${(s.wallMs / 1000).toFixed(1).padStart(6)} s  ${s.outcome}`,
  );
  return [
    `task ${result.taskId}: soft ${result.soft.toFixed(2)} hard ${result.hard}${result.failure ? ` (${result.failure.class}: ${result.failure.message})` : ''}`,
    ...rows,
  ].join('\n');
}
