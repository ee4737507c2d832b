/**
 * checked_vote on a v2 task through its adapter (benchmarks/spreadsheetbench2/checkedVote/adapter.ts): the task's
 * one-task SpreadsheetBench run folder made before the agent runs (checked_vote's own activities then work in it,
 * unchanged), and its submission taken as the v2 output afterwards.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import { FailureTypes } from '../../lib/failureTypes';
import { pathExists, writeJsonAtomic } from '../../lib/runStore/files';
import { DatasetError } from '../../lib/runStore/taskRecord';
import { openWorkbookValues } from '../../benchmarks/workbook/ooxmlReader';
import { v2Run } from '../../benchmarks/spreadsheetbench2/run/files';
import { v2TaskProblems } from '../../benchmarks/spreadsheetbench2/dataset';
import { datasetFile, type V2DatasetCopies } from '../../benchmarks/spreadsheetbench2/run/datasetCopies';
import { adapterRunDirOf } from '../../benchmarks/spreadsheetbench2/checkedVote/adapterFolder';
import { AdapterFiles, adaptedManifest, adaptedTask } from '../../benchmarks/spreadsheetbench2/checkedVote/adapter';

/** What checked_vote's workflow side is given (SpreadsheetBench's prepared task: one test case, its output path). */
export interface AdaptedTask {
  id: number | string;
  instructionType: string;
  testCases: number[];
  agentSettings: { maxTurns: number; maxRevisions: number; previewRows: number; promptVersion: string };
  outputPaths: string[];
}

/**
 * Writes the task's adapter run folder: its input (the recalculated copy when the run made one), tasks.json and
 * run.json. Idempotent; an input that is missing, leaves its folder or cannot be read, an answer that is missing or
 * names no sheet it has (answer_position), fails the task, named, before any model call.
 */
export async function prepareCheckedVote(input: {
  runDir: string;
  taskId: string;
  copies?: V2DatasetCopies;
}): Promise<AdaptedTask> {
  const run = await v2Run(input.runDir);
  const task = run.task(input.taskId);
  const source = await datasetFile(task, 'input');
  if ('problem' in source) throw datasetFailure(source.problem);
  // A task whose answer is missing or names no sheet it has scores 0 whatever its output: no model call is spent on it.
  const problems = await v2TaskProblems(task);
  if (problems.length) throw ApplicationFailure.nonRetryable(problems.join('; '), FailureTypes.DatasetError);
  const from = input.copies?.input.recalculated ? run.files.recalculatedPath(input.taskId, 'input') : source.path;
  const sheetnames = await openWorkbookValues(from).then(
    (wb) => wb.sheetnames,
    (err: unknown) => {
      throw datasetFailure(`task ${input.taskId}: input ${task.spreadsheet_path} cannot be read: ${String(err)}`);
    },
  );
  const adapter = new AdapterFiles(adapterRunDirOf(run.layout.root, input.taskId), input.taskId);
  await mkdir(path.dirname(adapter.inputPath), { recursive: true });
  const tmp = `${adapter.inputPath}.${randomUUID().slice(0, 8)}.tmp`;
  await copyFile(from, tmp);
  await rename(tmp, adapter.inputPath);
  await writeJsonAtomic(path.join(adapter.root, 'tasks.json'), [adaptedTask(task, input.taskId, sheetnames)]);
  await writeJsonAtomic(path.join(adapter.root, 'run.json'), adaptedManifest(run.manifest, task));
  const submission = adapter.submissionPath(run.manifest.llm.model);
  await mkdir(path.dirname(submission), { recursive: true });
  return {
    id: task.id,
    instructionType: task.category,
    testCases: [1],
    agentSettings: run.manifest.agentSettings,
    outputPaths: [submission],
  };
}

/** checked_vote's submission as the task's v2 output (`<id>_output.xlsx`); none when it submitted nothing. */
export async function collectCheckedVoteOutput(input: {
  runDir: string;
  taskId: string;
}): Promise<{ outputPath?: string }> {
  const run = await v2Run(input.runDir);
  const adapter = new AdapterFiles(adapterRunDirOf(run.layout.root, input.taskId), input.taskId);
  const submission = adapter.submissionPath(run.manifest.llm.model);
  const target = run.files.outputPath(input.taskId);
  await rm(target, { force: true });
  if (!(await pathExists(submission))) return {};
  await mkdir(path.dirname(target), { recursive: true });
  await copyFile(submission, target);
  return { outputPath: target };
}

function datasetFailure(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(new DatasetError(message).message, FailureTypes.DatasetError);
}
