import { throughBatch } from './batchedCall';
import {
  ApplicationFailure,
  condition,
  getExternalWorkflowHandle,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { TokenUsage } from '../../lib/llm/types';
import { spendGrantSignal, spendRequestSignal, spendSettleSignal, type SpendSettle } from '../../contracts/budget';
import type { TaskWorkflowInput } from '../../contracts/run';
import { FailureTypes } from '../../lib/failureTypes';

/**
 * The task side of run-wide budgets: ask the run for a grant, wait, call, settle (contracts/budget.ts). The run grants
 * only while spent + reserved is under the cap, so the overshoot is at most the calls already in flight; past the cap
 * the run pauses and queued calls wait for a raised budget. Without a run budget it only keeps the per-task cap.
 */
export class TaskBudget {
  private readonly granted = new Set<string>();
  private spentUsd = 0;

  constructor(private readonly input: TaskWorkflowInput) {
    setHandler(spendGrantSignal, ({ callKey }) => void this.granted.add(callKey));
  }

  async around<T extends { usage: TokenUsage; costUsd: number }>(callKey: string, call: () => Promise<T>): Promise<T> {
    if (this.input.taskBudgetUsd !== undefined && this.spentUsd >= this.input.taskBudgetUsd) {
      throw ApplicationFailure.nonRetryable(
        `task budget $${this.input.taskBudgetUsd} reached`,
        FailureTypes.BudgetExceeded,
      );
    }
    const parent = workflowInfo().parent;
    const budgeted = this.input.budgeted && parent;
    if (budgeted) {
      await getExternalWorkflowHandle(parent.workflowId).signal(spendRequestSignal, {
        workflowId: workflowInfo().workflowId,
        callKey,
      });
      await condition(() => this.granted.has(callKey));
    }
    let settled: SpendSettle = { callKey, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };
    try {
      const result = await throughBatch(call);
      settled = { callKey, usage: result.usage, costUsd: result.costUsd };
      this.spentUsd += result.costUsd;
      return result;
    } finally {
      if (budgeted) await getExternalWorkflowHandle(parent.workflowId).signal(spendSettleSignal, settled);
    }
  }
}
