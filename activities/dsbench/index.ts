import { readFile } from 'node:fs/promises';
import { ApplicationFailure } from '@temporalio/activity';
import { dsbenchRun, type DsbenchRun } from '../../benchmarks/dsbench/run';
import { DatasetError } from '../../lib/runStore/taskRecord';
import { pathExists, writeFileAtomic, writeJsonAtomic } from '../../lib/runStore/files';
import { readJsonIfPresent, readRequiredJson } from '../../lib/json';
import {
  dsbenchAnswerSchema,
  dsbenchJudgmentSchema,
  dsbenchQuestionResultSchema,
} from '../../benchmarks/dsbench/resultSchema';
import { competitionFiles, questionTexts, type DsbenchQuestion } from '../../benchmarks/dsbench/dataset';
import { workbookText } from '../../benchmarks/dsbench/workbookText';
import { agentTurnRequest, answerRequest, judgeRequest } from '../../benchmarks/dsbench/requests';
import { loadJudgeTemplate, parseVerdict } from '../../benchmarks/dsbench/judge';
import { dsbenchSettingsOf } from '../../benchmarks/dsbench/settings';
import { dsbenchPaths } from '../../benchmarks/dsbench/layout';
import { Spend } from '../../lib/llm/usage';
import { questionResult, type DsbenchAnswer, type DsbenchJudgment } from '../../benchmarks/dsbench/result';
import type { TaskFailureClass } from '../../contracts/taskResult';
import { cachedModelCall, costOfResponse } from '../llm/modelCall';
import { SessionRegistry, STATE_RESET_NOTE } from '../sessionRegistry';
import { agentPrompt } from '../../benchmarks/dsbench/agentPrompt';
import { conversationUpTo, readConversation, writeConversation } from '../../lib/runStore/conversationStore';
import { extractPythonCode } from '../../benchmarks/codeAgent/codeExtraction';
import { executionFeedback } from '../../benchmarks/codeAgent/feedback';
import type { ChatMessage } from '../../lib/llm/types';
import { assistantMessageOf } from '../../lib/llm/assistantMessage';
import path from 'node:path';
import { executionWorkDir } from '../workDirs';
import { withHeartbeat } from '../heartbeat';
import type { WorkerDeps } from '../deps';
import { FailureTypes } from '../../lib/failureTypes';

export interface DsbenchCallInput {
  runDir: string;
  taskId: string;
  callKey: string;
}

/** What travels back to the workflow: spend only (the texts stay in the run folder). */
export interface DsbenchCallResult {
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  cached: boolean;
}

/** Workbook texts being prepared in this process, so concurrent questions of one competition share one sandbox run. */
const preparing = new Map<string, Promise<void>>();

const AGENT_CONVERSATION = 'agent';

export function dsbenchActivities(deps: WorkerDeps, registry = new SessionRegistry(deps)) {
  return {
    /** Checks the question's inputs (its text, the introduction); returns its competition. */
    async prepareDsbenchQuestion(input: {
      runDir: string;
      taskId: string;
    }): Promise<{ competitionId: string; agentMaxRounds: number }> {
      const ctx = await dsbenchRun(input.runDir);
      const q = ctx.task(input.taskId);
      await asDatasetFailure(() => questionTexts(ctx.manifest.datasetDir, q));
      return { competitionId: q.competitionId, agentMaxRounds: dsbenchSettingsOf(ctx.manifest).agentMaxRounds };
    },

    /**
     * Agent setting, one round: the model sees the system prompt, the agent prompt and the earlier rounds (its replies and
     * their execution output); its reply is the question's answer so far. Says whether the reply asks to run code.
     */
    async dsbenchAgentTurn(
      input: DsbenchCallInput & { round: number },
    ): Promise<DsbenchCallResult & { hasCode: boolean }> {
      const started = Date.now();
      const ctx = await dsbenchRun(input.runDir);
      const q = ctx.task(input.taskId);
      const taskDir = ctx.layout.taskDir(input.taskId);
      const history =
        input.round === 0 ? [] : await conversationUpTo(ctx.layout, input.taskId, AGENT_CONVERSATION, 2 * input.round);
      const user: ChatMessage = {
        role: 'user',
        content:
          input.round === 0
            ? await firstAgentMessage(ctx, q)
            : await readFile(feedbackPath(taskDir, input.round - 1), 'utf8'),
      };
      const messages: ChatMessage[] = [...history, user];
      const response = await cachedModelCall(
        deps,
        ctx,
        agentTurnRequest(ctx.manifest.llm.model, messages),
        input.callKey,
      );
      await writeConversation(ctx.layout, input.taskId, AGENT_CONVERSATION, [
        ...messages,
        assistantMessageOf(response),
      ]);
      const costUsd = costOfResponse(response, ctx.manifest.llm.model, deps);
      const previous =
        input.round === 0 ? undefined : await readJsonIfPresent(dsbenchPaths.answer(taskDir), dsbenchAnswerSchema);
      const answer: DsbenchAnswer = {
        taskId: input.taskId,
        model: response.model,
        response: response.text,
        promptTokens: response.usage.inputTokens,
        truncated: false,
        usage: response.usage,
        costUsd,
        llmCalls: (previous?.llmCalls ?? 0) + 1,
        wallMs: (previous?.wallMs ?? 0) + Date.now() - started,
      };
      await writeJsonAtomic(dsbenchPaths.answer(taskDir), answer);
      return { usage: response.usage, costUsd, cached: response.cached, hasCode: response.text.includes('```python') };
    },

    /** Agent setting: runs the round's code in the question's kernel, whose work dir holds copies of the workbooks. */
    async dsbenchAgentExecute(input: {
      runDir: string;
      taskId: string;
      round: number;
    }): Promise<{ stateReset: boolean }> {
      const ctx = await dsbenchRun(input.runDir);
      const q = ctx.task(input.taskId);
      const taskDir = ctx.layout.taskDir(input.taskId);
      const reply = (await readConversation(ctx.layout, input.taskId, AGENT_CONVERSATION))[2 * input.round + 1];
      if (reply?.role !== 'assistant')
        throw new Error(`question ${input.taskId}: no reply of round ${input.round} to execute`);
      const files = await asDatasetFailure(() => competitionFiles(ctx.manifest.datasetDir, q.competitionId));
      const key = SessionRegistry.key(input.runDir, input.taskId, AGENT_CONVERSATION);
      const resumed = registry.has(key);
      const workDir = await executionWorkDir(deps.config, ctx.manifest.runId, input.taskId, 'agent');
      const session = await registry.open(
        key,
        workDir,
        files.workbooks.map((name) => ({ inputPath: path.join(files.dir, name), inputName: name })),
      );
      const code = `import os\nos.chdir(${JSON.stringify(session.sandbox.workDirInside)})\n${extractPythonCode(reply.content)}`;
      const result = await withHeartbeat(() =>
        session.sandbox.execute(code, { timeoutMs: deps.config.sandbox.executionTimeoutMs }),
      ).catch(async (err: unknown) => {
        await registry.close(key);
        throw err;
      });
      const stateReset = (input.round > 0 && !resumed) || result.stateReset;
      const note = stateReset ? `${STATE_RESET_NOTE}\n` : '';
      await writeFileAtomic(feedbackPath(taskDir, input.round), `${note}${executionFeedback(result)}`);
      return { stateReset };
    },

    /** Ends the question's kernel on this worker (one left on another worker ends by its idle time-out). */
    async closeDsbenchSession(input: { runDir: string; taskId: string }): Promise<void> {
      await registry.close(SessionRegistry.key(input.runDir, input.taskId, AGENT_CONVERSATION));
    },

    /** The competition's workbook text, computed once (sandboxed pandas) into the run folder; later calls reuse the file. */
    async prepareWorkbookText(input: { runDir: string; competitionId: string }): Promise<{ path: string }> {
      const ctx = await dsbenchRun(input.runDir);
      const file = dsbenchPaths.workbookText(input.runDir, input.competitionId);
      if (!(await pathExists(file))) {
        let job = preparing.get(file);
        if (!job) {
          job = computeWorkbookText(deps, ctx, input.competitionId, file).finally(() => preparing.delete(file));
          preparing.set(file, job);
        }
        await withHeartbeat(() => asDatasetFailure(() => job));
      }
      return { path: file };
    },

    /** The model-only runner's call: one request per question, reply kept in tasks/<id>/answer.json. */
    async answerDsbenchQuestion(input: DsbenchCallInput): Promise<DsbenchCallResult> {
      const started = Date.now();
      const ctx = await dsbenchRun(input.runDir);
      const q = ctx.task(input.taskId);
      const settings = dsbenchSettingsOf(ctx.manifest);
      const text = await readWorkbookText(input.runDir, q.competitionId);
      const built = await asDatasetFailure(() =>
        answerRequest({
          datasetDir: ctx.manifest.datasetDir,
          question: q,
          workbookText: text,
          settings,
          model: ctx.manifest.llm.model,
        }),
      );
      const taskDir = ctx.layout.taskDir(input.taskId);
      await writeFileAtomic(dsbenchPaths.prompt(taskDir), built.prompt);
      const response = await cachedModelCall(deps, ctx, built.request, input.callKey);
      const costUsd = costOfResponse(response, ctx.manifest.llm.model, deps);
      const answer: DsbenchAnswer = {
        taskId: input.taskId,
        model: response.model,
        response: response.text,
        promptTokens: built.promptTokens,
        truncated: built.truncated,
        usage: response.usage,
        costUsd,
        llmCalls: 1,
        wallMs: Date.now() - started,
      };
      await writeJsonAtomic(dsbenchPaths.answer(taskDir), answer);
      return { usage: response.usage, costUsd, cached: response.cached };
    },

    /** One judgment of the recorded answer (its own activity and call key: a crash after the answer never re-asks it). */
    async judgeDsbenchAnswer(input: DsbenchCallInput & { judgeModel?: string }): Promise<DsbenchCallResult> {
      const ctx = await dsbenchRun(input.runDir);
      const q = ctx.task(input.taskId);
      const settings = dsbenchSettingsOf(ctx.manifest);
      const taskDir = ctx.layout.taskDir(input.taskId);
      const answer = await readRequiredJson(dsbenchPaths.answer(taskDir), dsbenchAnswerSchema);
      const template = await loadJudgeTemplate(settings.judgeTemplate);
      const judgeModel = input.judgeModel ?? settings.judgeModel;
      const request = await asDatasetFailure(() =>
        judgeRequest({
          datasetDir: ctx.manifest.datasetDir,
          question: q,
          predicted: answer.response,
          template: template.text,
          judgeModel,
        }),
      );
      const response = await cachedModelCall(deps, ctx, request, input.callKey);
      const costUsd = costOfResponse(response, judgeModel, deps);
      const judgment: DsbenchJudgment = {
        taskId: input.taskId,
        judgeModel,
        reply: response.text,
        verdict: parseVerdict(response.text),
        usage: response.usage,
        costUsd,
        callKey: input.callKey,
      };
      await writeJsonAtomic(dsbenchPaths.judgment(taskDir), judgment);
      return { usage: response.usage, costUsd, cached: response.cached };
    },

    /** results/<id>.json from what the question's activities recorded (idempotent). */
    async recordDsbenchResult(input: {
      runDir: string;
      taskId: string;
      failure?: { class: TaskFailureClass; message: string };
      spend: Spend;
      wallMs: number;
      /** A rejudge: add this spend and time to the recorded result's (the answer was paid for once, earlier). */
      addToRecorded?: boolean;
    }): Promise<{ soft: number }> {
      const ctx = await dsbenchRun(input.runDir);
      const q = ctx.task(input.taskId);
      const taskDir = ctx.layout.taskDir(input.taskId);
      const recorded = input.addToRecorded
        ? await readJsonIfPresent(ctx.layout.taskResultPath(input.taskId), dsbenchQuestionResultSchema)
        : undefined;
      const spend = recorded ? Spend.add(recorded, input.spend) : input.spend;
      // Either may be missing when the question failed first; a corrupt one throws naming its file.
      const answer = await readJsonIfPresent(dsbenchPaths.answer(taskDir), dsbenchAnswerSchema);
      const judgment = await readJsonIfPresent(dsbenchPaths.judgment(taskDir), dsbenchJudgmentSchema);
      const result = questionResult({
        question: q,
        answer,
        judgment,
        failure: input.failure,
        spend,
        wallMs: (recorded?.wallMs ?? 0) + input.wallMs,
      });
      await writeJsonAtomic(ctx.layout.taskResultPath(input.taskId), result);
      return { soft: result.soft };
    },
  };
}

function feedbackPath(taskDir: string, round: number): string {
  return path.join(taskDir, 'agent', `execution-${round}.txt`);
}

async function firstAgentMessage(ctx: DsbenchRun, q: DsbenchQuestion): Promise<string> {
  const texts = await asDatasetFailure(() => questionTexts(ctx.manifest.datasetDir, q));
  const files = await asDatasetFailure(() => competitionFiles(ctx.manifest.datasetDir, q.competitionId));
  return agentPrompt({ ...texts, workbooks: files.workbooks });
}

async function readWorkbookText(runDir: string, competitionId: string): Promise<string> {
  return readFile(dsbenchPaths.workbookText(runDir, competitionId), 'utf8');
}

async function computeWorkbookText(
  deps: WorkerDeps,
  ctx: DsbenchRun,
  competitionId: string,
  file: string,
): Promise<void> {
  const files = await competitionFiles(ctx.manifest.datasetDir, competitionId);
  const factory = await deps.sandboxFactory();
  const text = await workbookText({
    competitionId,
    dir: files.dir,
    workbooks: files.workbooks,
    workDir: await executionWorkDir(deps.config, ctx.manifest.runId, competitionId, 'workbook-text'),
    sandbox: (workDir) =>
      factory.create({
        workDir,
        limits: { memoryMiB: deps.config.sandbox.memoryMiB, maxProcesses: deps.config.sandbox.maxProcesses },
      }),
    timeoutMs: deps.config.sandbox.executionTimeoutMs,
  });
  await writeFileAtomic(file, text);
}

/** A dataset problem (missing file, unreadable workbook) fails this question at once, naming the cause; no retry. */
async function asDatasetFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DatasetError) throw ApplicationFailure.nonRetryable(err.message, FailureTypes.DatasetError);
    throw err;
  }
}

export type DsbenchActivities = ReturnType<typeof dsbenchActivities>;
