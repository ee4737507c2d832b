/**
 * A DSBench question of a run for `sheetbench show` and the task page: the question (its text from the dataset), the
 * expected answer, the model's reply, the judge's verdict and reply; the agent setting's rounds as the trajectory.
 */
import path from 'node:path';
import { z } from 'zod';
import { readJsonIfPresent, readRequiredJson, readTextIfPresent } from '../../lib/json';
import { readManifest } from '../../lib/runStore/manifest';
import { RunLayout } from '../../lib/runStore/runLayout';
import {
  exchangesOf,
  pendingFields,
  resultFields,
  TaskViewError,
  type TaskView,
  type TrajectoryStep,
} from '../report/taskView';
import { dsbenchQuestionSchema, questionTexts } from './dataset';
import { dsbenchQuestionResultSchema } from './resultSchema';
import { dsbenchPaths } from './layout';
import type { DsbenchQuestionResult } from './result';

/** tasks/<id>/conversations/agent.json as the trajectory reads it (roles and contents of any shape). */
const agentConversationSchema = z.array(z.looseObject({ role: z.string(), content: z.unknown() }));

export async function dsbenchTaskView(runDir: string, taskArg: string): Promise<TaskView> {
  const manifest = await readManifest(runDir);
  const layout = new RunLayout(runDir);
  const questions = await readRequiredJson(layout.taskListPath, z.array(dsbenchQuestionSchema));
  const q = questions.find((x) => x.id === taskArg);
  if (!q)
    throw new TaskViewError(
      `run ${manifest.runId} has no task ${JSON.stringify(taskArg)} (its ${questions.length} questions: ${questions
        .slice(0, 8)
        .map((x) => x.id)
        .join(', ')}${questions.length > 8 ? ', …' : ''})`,
    );
  const result = (await readJsonIfPresent(layout.taskResultPath(q.id), dsbenchQuestionResultSchema)) ?? null;
  // The dataset may not be on this host (`show` run elsewhere): the question is then shown without its text.
  const texts = await questionTexts(manifest.datasetDir, q).catch(() => undefined); // see above
  const taskDir = layout.taskDir(q.id);
  const prompt = await readTextIfPresent(dsbenchPaths.prompt(taskDir));
  const base = {
    runId: manifest.runId,
    benchmark: manifest.benchmark,
    taskId: q.id,
    attempt: q.id,
    epoch: 1,
    epochs: result ? [1] : [],
    instruction: texts
      ? `${texts.introduction}\n\n${texts.question}`
      : `(question ${q.question} of ${q.competitionId}: its text is not readable in ${manifest.datasetDir})`,
    instructionType: q.answerType,
    testCases: [],
    question: {
      question: texts?.question ?? q.question,
      expected: q.answer,
      ...(result?.predicted !== undefined ? { reply: result.predicted } : {}),
      ...(result?.verdict ? { verdict: result.verdict } : {}),
      ...(result?.judgeModel ? { judgeModel: result.judgeModel } : {}),
      ...(result?.judgeReply !== undefined ? { judgeReply: result.judgeReply } : {}),
      ...(result?.exactMatch !== undefined ? { exactMatch: result.exactMatch } : {}),
    },
  };
  if (!result) return { ...base, ...pendingFields(`question ${q.id}`) };
  return { ...base, ...resultFields(result), trajectory: await trajectory(taskDir, prompt, result), notes: [] };
}

/** The agent's rounds (conversation `agent`), or the one answer to the prompt as sent; then the judgment. */
async function trajectory(
  taskDir: string,
  prompt: string | undefined,
  result: DsbenchQuestionResult,
): Promise<TrajectoryStep[]> {
  const step = (stage: string, exchanges: TrajectoryStep['exchanges']): TrajectoryStep => ({
    stage,
    outcome: 'ok',
    llmCalls: exchanges.length,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    wallMs: 0,
    exchanges,
    executions: [],
  });
  const agent =
    (await readJsonIfPresent(path.join(taskDir, 'conversations', 'agent.json'), agentConversationSchema)) ?? [];
  const rounds = exchangesOf('agent', agent).map((x, i) => step(`round-${i + 1}`, [x]));
  const answer = rounds.length
    ? rounds
    : prompt !== undefined || result.predicted !== undefined
      ? [step('answer', [{ conversation: 'answer', prompt: prompt ?? '', reply: result.predicted ?? '' }])]
      : [];
  const judge =
    result.judgeReply !== undefined
      ? [
          step('judge', [
            {
              conversation: 'judge',
              prompt: `judge ${result.judgeModel ?? ''}: is the answer right?`,
              reply: result.judgeReply,
            },
          ]),
        ]
      : [];
  return [...answer, ...judge];
}
