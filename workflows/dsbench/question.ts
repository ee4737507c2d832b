import { CancellationScope, isCancellation, upsertSearchAttributes } from '@temporalio/workflow';
import type { TaskDoneSignal, TaskWorkflowInput } from '../../contracts/run';
import type { TaskFailureClass } from '../../contracts/taskResult';
import { Spend, type TokenUsage } from '../../lib/llm/usage';
import { SA } from '../../lib/temporal/searchAttributes';
import { TaskBudget } from '../run/budget';
import { classifyFailure } from '../run/taskFailure';
import { bookkeeping, execution, llm } from './activities';
import { callKeyOf } from '../../lib/llm/callKey';

/** The question answered, judged and recorded: its done summary (every generation of the workflow takes these steps). */
export async function answerAndJudge(input: TaskWorkflowInput): Promise<TaskDoneSignal> {
  const budget = new TaskBudget(input);
  // Spend of the question's LLM calls, as the run counts it.
  let spend = Spend.zero();
  const startedAt = Date.now();
  const call: ModelCall = async (stage, fn) => {
    const callKey = callKeyOf([input.runId, input.taskId, stage], input.rerunTag);
    const result = await budget.around(callKey, () => fn(callKey));
    spend = Spend.add(spend, Spend.ofCall(result));
    return result;
  };

  let failure: { class: TaskFailureClass; message: string } | undefined;
  try {
    stage('prepare');
    const { competitionId, agentMaxRounds } = await bookkeeping.prepareDsbenchQuestion({
      runDir: input.runDir,
      taskId: input.taskId,
    });
    stage('answer');
    if (input.agent === 'agent') {
      await agentLoop(input, agentMaxRounds, call);
    } else {
      await execution.prepareWorkbookText({ runDir: input.runDir, competitionId });
      await call('answer', (callKey) =>
        llm.answerDsbenchQuestion({ runDir: input.runDir, taskId: input.taskId, callKey }),
      );
    }
    stage('judge');
    await call('judge', (callKey) => llm.judgeDsbenchAnswer({ runDir: input.runDir, taskId: input.taskId, callKey }));
  } catch (err) {
    if (isCancellation(err)) throw err;
    failure = classifyFailure(err);
  }
  const { soft } = await bookkeeping.recordDsbenchResult({
    runDir: input.runDir,
    taskId: input.taskId,
    failure,
    spend: { usage: spend.usage, costUsd: spend.costUsd, llmCalls: spend.llmCalls },
    wallMs: Date.now() - startedAt,
  });
  upsertSearchAttributes([
    { key: SA.status, value: failure ? `failed:${failure.class}` : 'scored' },
    { key: SA.costUsd, value: spend.costUsd },
  ]);
  return {
    taskId: input.taskId,
    soft,
    hard: soft,
    failureClass: failure?.class,
    usage: spend.usage,
    costUsd: spend.costUsd,
    llmCalls: spend.llmCalls,
    budgeted: input.budgeted ?? false,
  };
}

type ModelCall = <T extends { usage: TokenUsage; costUsd: number }>(
  stage: string,
  fn: (callKey: string) => Promise<T>,
) => Promise<T>;

/** The agent setting: rounds of (model reply → run its code in the question's kernel → show the output), until a reply has no code. */
async function agentLoop(input: TaskWorkflowInput, maxRounds: number, call: ModelCall): Promise<void> {
  try {
    for (let round = 0; round < maxRounds; round++) {
      const turn = await call(`agent/${round}`, (callKey) =>
        llm.dsbenchAgentTurn({ runDir: input.runDir, taskId: input.taskId, round, callKey }),
      );
      if (!turn.hasCode || round === maxRounds - 1) break;
      await execution.dsbenchAgentExecute({ runDir: input.runDir, taskId: input.taskId, round });
    }
  } finally {
    await CancellationScope.nonCancellable(() =>
      bookkeeping.closeDsbenchSession({ runDir: input.runDir, taskId: input.taskId }),
    ).catch(() => undefined); // best-effort: an unclosed session expires by its idle TTL
  }
}

function stage(name: string): void {
  upsertSearchAttributes([{ key: SA.stage, value: name }]);
}
