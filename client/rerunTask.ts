import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Config } from '../config/schema';
import type { TaskWorkflowInput } from '../contracts/run';
import type { TaskResult } from '../contracts/taskResult';
import { toPayloadPath } from '../lib/runStore/artifactsRoot';
import { writeJsonAtomic } from '../lib/runStore/files';
import { readManifest } from '../lib/runStore/manifest';
import { spreadsheetTask } from '../workflows/spreadsheetbench/spreadsheetTask';

export interface RerunRequest {
  runDir: string;
  taskId: string;
  fromStage: number;
  /** Folder of `<template>.txt` prompt files overriding the built-in ones. */
  promptDir?: string;
}

/** Starts the task workflow again (new workflow id, same run folder) from `fromStage`, and waits for its result. */
export async function rerunTask(client: Client, config: Config, req: RerunRequest): Promise<TaskResult> {
  const manifest = await readManifest(req.runDir);
  const tag = `rerun-${Date.now().toString(36)}`;
  await writeJsonAtomic(path.join(req.runDir, 'tasks', req.taskId, 'reruns', `${tag}.json`), {
    tag,
    fromStage: req.fromStage,
    promptDir: req.promptDir ? path.resolve(req.promptDir) : null,
    overriddenTemplates: req.promptDir ? readdirSync(req.promptDir).filter((f) => f.endsWith('.txt')) : [],
    startedAt: new Date().toISOString(),
  });
  const input: TaskWorkflowInput = {
    runId: manifest.runId,
    runDir: toPayloadPath(req.runDir, config.artifacts.root),
    taskId: req.taskId,
    agent: manifest.agent,
    recalcTaskQueue: config.recalc.engine === 'none' ? undefined : config.temporal.recalcTaskQueue,
    fromStage: req.fromStage,
    promptDir: req.promptDir ? path.resolve(req.promptDir) : undefined,
    rerunTag: tag,
  };
  return client.workflow.execute(spreadsheetTask, {
    workflowId: `${manifest.runId}/task/${req.taskId}/${tag}`,
    taskQueue: config.temporal.taskQueue,
    args: [input],
  });
}
