import { open, access, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';
import { testCaseFiles, OFFICIAL_TEST_CASES } from '../../benchmarks/spreadsheetbench/dataset';
import { writeJsonAtomic, readJson } from '../../lib/runStore/files';
import { readJsonIfPresent } from '../../lib/json';
import { taskResultSchema } from '../../contracts/taskResultSchema';
import type { TaskResult } from '../../contracts/taskResult';
import { readConversation } from '../../lib/runStore/conversationStore';
import type { RunManifest } from '../../lib/runStore/manifest';
import { FailureTypes } from '../../lib/failureTypes';
import { warmPreviewUnlessKept } from './preview';

export interface PreparedTask {
  id: number | string;
  instructionType: string;
  testCases: number[];
  /** The run's agent settings (max turns, revisions, prompt version), from run.json. */
  agentSettings?: RunManifest['agentSettings'];
  /** Where each test case's output goes, whether or not one is written (recalculation skips the missing ones). */
  outputPaths?: string[];
}

export interface RecordTaskResultInput {
  runDir: string;
  result: TaskResult;
  /** Conversations to keep in the transcript. */
  conversations: string[];
  /** What goes into the official conv JSONL: the main conversation, the last execution feedback, the solution. */
  official?: { conversation: string; finalFeedback?: string; solution: string };
}

export const taskActivities = {
  /** Checks that the task's workbooks exist and look like xlsx files; a bad task fails alone, with its cause. */
  async prepareTask(input: { runDir: string; taskId: string }): Promise<PreparedTask> {
    const ctx = await sheetRun(input.runDir);
    const task = ctx.task(input.taskId);
    const cases = await testCaseFiles(ctx.manifest.datasetDir, task, OFFICIAL_TEST_CASES);
    if (!cases.length) {
      throw ApplicationFailure.nonRetryable(
        `task ${input.taskId}: no input workbook 1_${input.taskId}_input.xlsx in ${task.spreadsheet_path}`,
        FailureTypes.DatasetError,
      );
    }
    // This worker runs SpreadsheetBench tasks: its preview server starts now if the preview must be built, not when
    // the first LLM call needs it. Workers that never build one never start it.
    await warmPreviewUnlessKept(ctx, input.taskId, cases[0].inputPath);
    for (const c of cases) {
      const problem = (await zipProblem(c.inputPath)) ?? null;
      if (problem)
        throw ApplicationFailure.nonRetryable(
          `task ${input.taskId}: ${path.basename(c.inputPath)} ${problem}`,
          FailureTypes.DatasetError,
        );
    }
    // The outputs folder exists from here on: a recalculation never waits for it, even when no output was written.
    await mkdir(path.dirname(ctx.official.outputPath(input.taskId, 1)), { recursive: true });
    return {
      id: task.id,
      instructionType: task.instruction_type,
      testCases: cases.map((c) => c.index),
      agentSettings: ctx.manifest.agentSettings,
      outputPaths: cases.map((c) => ctx.official.outputPath(input.taskId, c.index)),
    };
  },

  /** Writes the task's result and transcript to the artifact store (idempotent: same content on a retry). */
  async recordTaskResult(input: RecordTaskResultInput): Promise<void> {
    const ctx = await sheetRun(input.runDir);
    const taskId = input.result.taskId;
    // The task record is the authority on the id's type and the instruction type (also for tasks that failed early).
    const task = ctx.task(taskId);
    const epochs = ctx.manifest.epochs ?? 1;
    const result: TaskResult = {
      ...input.result,
      id: task.id,
      instructionType: task.instruction_type,
      ...(epochs > 1 ? { epoch: ctx.official.attempt(taskId).epoch } : {}),
    };
    const official = input.official;
    const mainConversation = official ? await readConversation(ctx.layout, taskId, official.conversation) : [];
    await writeJsonAtomic(ctx.official.officialConvPath(taskId), {
      id: result.id,
      instruction_type: result.instructionType,
      conversation: official
        ? [
            ...mainConversation.map((m) => m.content),
            ...(official.finalFeedback !== undefined ? [official.finalFeedback] : []),
          ]
        : '',
      solution: official?.solution ?? '',
    });
    const transcript = {
      taskId,
      messages: (
        await Promise.all(
          input.conversations.map(async (name) =>
            (await readConversation(ctx.layout, taskId, name)).map((m) => ({ ...m, conversation: name })),
          ),
        )
      ).flat(),
      executions: await executionRecords(ctx.layout.taskDir(taskId)),
      stages: result.stages,
    };
    await writeJsonAtomic(ctx.layout.transcriptPath(taskId), transcript);
    await writeJsonAtomic(ctx.layout.taskResultPath(taskId), result);
  },

  /** Output workbooks that exist for these test cases (the ones worth recalculating). */
  async outputPaths(input: {
    runDir: string;
    taskId: string;
    testCases: number[];
  }): Promise<{ outputPaths: string[] }> {
    const ctx = await sheetRun(input.runDir);
    const paths = input.testCases.map((n) => ctx.official.outputPath(input.taskId, n));
    const present = await Promise.all(
      paths.map((p) =>
        access(p).then(
          () => true,
          () => false,
        ),
      ),
    );
    return { outputPaths: paths.filter((_, i) => present[i]) };
  },

  async readTaskResult(input: { runDir: string; taskId: string }): Promise<TaskResult | null> {
    const ctx = await sheetRun(input.runDir);
    // A corrupt result throws naming the file: it is not taken for "not run yet" (which would pay for the task again).
    return (await readJsonIfPresent(ctx.layout.taskResultPath(input.taskId), taskResultSchema)) ?? null;
  },
};

/** The task's execution records (tasks/<id>/executions/*.json), in the order they were written. */
async function executionRecords(taskDir: string): Promise<unknown[]> {
  const dir = path.join(taskDir, 'executions');
  const files = await readdir(dir).catch(() => [] as string[]);
  const records = await Promise.all(
    files
      .filter((f) => f.endsWith('.json'))
      .map(async (f) => ({
        at: (await stat(path.join(dir, f))).mtimeMs,
        record: await readJson<unknown>(path.join(dir, f)),
      })),
  );
  return records.sort((a, b) => a.at - b.at).map((r) => r.record);
}

async function zipProblem(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return 'is missing';
  }
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head.readUInt32BE(0) === 0xd0cf11e0) return 'is an encrypted or legacy (OLE) workbook, not an xlsx';
    if (head.readUInt32BE(0) !== 0x504b0304) return 'is not an xlsx (zip) file: corrupt';
    return undefined;
  } finally {
    await handle.close();
  }
}
