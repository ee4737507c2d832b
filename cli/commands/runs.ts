import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { loadConfig } from '../../config/load';
import { connectClient } from '../../lib/temporal/connection';
import { SA } from '../../lib/temporal/searchAttributes';
import { z } from 'zod';
import { readJsonIfPresent } from '../../lib/json';
import { located, recordedFolder, recordedIn, type RecordedRun } from '../../client/runLocation';
import { resolveTemporal } from '../temporalSession';

export interface RunRow {
  id: string;
  benchmark: string;
  agent: string;
  model: string;
  status: string;
  done: number;
  total: number | null;
  costUsd: number;
  folder: string;
}

/** `sheetbench runs`: the runs Temporal's visibility store knows, newest first. */
export function registerRunsCommand(program: Command): void {
  program
    .command('runs')
    .description('list runs (id, benchmark, agent, model, status, progress, cost, folder) from the Temporal server')
    .option('--limit <n>', 'at most this many runs', '50')
    .option('--json', 'print JSON')
    .action(async (flags: { limit: string; json?: boolean }) => {
      const config = loadConfig();
      const client = await connectClient(await resolveTemporal(config, () => undefined));
      try {
        const rows = await listRuns(client, config.artifacts.root, Number(flags.limit) || 50);
        process.stdout.write(flags.json ? `${JSON.stringify(rows, null, 2)}\n` : formatRuns(rows));
      } finally {
        await client.connection.close();
      }
    });
}

export async function listRuns(client: Client, artifactsRoot: string | undefined, limit: number): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for await (const wf of client.workflow.list({ query: 'WorkflowType="benchmarkRun"' })) {
    rows.push(await runRow(client, wf, artifactsRoot));
    if (rows.length >= limit) break;
  }
  return rows;
}

async function runRow(client: Client, wf: WorkflowExecutionInfo, artifactsRoot: string | undefined): Promise<RunRow> {
  const sa = wf.typedSearchAttributes;
  const runId = sa.get(SA.runId) ?? wf.workflowId;
  const recorded = recordedIn(wf.memo);
  const local = recorded ? await localFolder(recorded, runId, artifactsRoot) : undefined;
  return {
    id: wf.workflowId,
    benchmark: sa.get(SA.benchmark) ?? '',
    agent: sa.get(SA.agent) ?? '',
    model: sa.get(SA.model) ?? '',
    status: wf.status.name === 'RUNNING' ? (sa.get(SA.status) ?? 'running') : wf.status.name.toLowerCase(),
    done: local ? await resultCount(local) : await finishedTaskWorkflows(client, runId),
    total: local ? await taskCount(local) : null,
    costUsd: sa.get(SA.costUsd) ?? 0,
    folder: recorded?.runDir ?? '',
  };
}

/** The run folder on this host, when it sees it and it holds this run (as every command finds a run's folder). */
async function localFolder(
  recorded: RecordedRun,
  runId: string,
  artifactsRoot: string | undefined,
): Promise<string | undefined> {
  const found = await recordedFolder(recorded, runId, artifactsRoot);
  return located(found) ? found.dir : undefined;
}

/** What the count reads of run.json (a corrupt one throws naming it). */
const plannedSchema = z.looseObject({ taskCount: z.number().optional(), epochs: z.number().optional() });

/** Planned results: tasks, times the attempts each (a run with repeats records one result per attempt). */
async function taskCount(folder: string): Promise<number | null> {
  const manifest = await readJsonIfPresent(path.join(folder, 'run.json'), plannedSchema);
  return manifest?.taskCount === undefined ? null : manifest.taskCount * (manifest.epochs ?? 1);
}

/** Finished tasks: one result file each (retries rewrite it), so exact. */
async function resultCount(folder: string): Promise<number> {
  return (await readdir(path.join(folder, 'results')).catch(() => [] as string[])).filter((f) => f.endsWith('.json'))
    .length;
}

/** Without the folder: task workflows that completed (a retried task counts once per attempt). */
async function finishedTaskWorkflows(client: Client, runId: string): Promise<number> {
  return (
    await client.workflow.count(
      `BenchRunId="${runId}" AND WorkflowType="spreadsheetTask" AND ExecutionStatus="Completed"`,
    )
  ).count;
}

export function formatRuns(rows: readonly RunRow[]): string {
  if (!rows.length) return 'no runs\n';
  const table = [
    ['RUN', 'BENCHMARK', 'AGENT', 'MODEL', 'STATUS', 'PROGRESS', 'COST', 'FOLDER'],
    ...rows.map((r) => [
      r.id,
      r.benchmark,
      r.agent,
      r.model,
      r.status,
      `${r.done}/${r.total ?? '?'}`,
      `$${r.costUsd.toFixed(4)}`,
      r.folder,
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  return (
    table
      .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  '))
      .join('\n') + '\n'
  );
}
