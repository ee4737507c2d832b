import type { PreparedTask } from '../../../activities/spreadsheetbench/task';
import type { TaskWorkflowInput } from '../../../contracts/run';
import type { StageRecord } from '../../../contracts/taskResult';
import type { TaskBudget } from '../../run/budget';
import { execution, llm, sessions } from '../activities';
import type { StageLedger } from '../stageLedger';
import type { AgentContext, StageTools } from './agent';
import { callKeyOf } from '../../../lib/llm/callKey';

export type InStage = <T>(ledger: StageLedger, stage: string, fn: (record: StageRecord) => Promise<T>) => Promise<T>;

const DEFAULT_SETTINGS = { maxTurns: 5, maxRevisions: 3 };

/** Whether the agent opened a kernel session: only then is there one to close when it ends. */
export interface SessionUse {
  opened: boolean;
}

/** The activities an agent may use, each charged to a named stage of the task's ledger. */
export function createAgentContext(
  input: TaskWorkflowInput,
  prepared: PreparedTask,
  ledger: StageLedger,
  inStage: InStage,
  budget: TaskBudget,
  sessionUse: SessionUse,
): AgentContext {
  const settings = { ...DEFAULT_SETTINGS, ...pick(prepared.agentSettings) };
  const toolsFor = (record: StageRecord, setNote: (o: string) => void): StageTools => ({
    async callModel(conversation, turn, user) {
      const callKey = callKeyOf([input.runId, input.taskId, conversation, turn], input.rerunTag);
      const reply = await budget.around(callKey, () =>
        llm.llmTurn({ runDir: input.runDir, taskId: input.taskId, conversation, turn, user, callKey }),
      );
      ledger.charge(record, reply.usage, reply.costUsd);
      return reply;
    },
    executeInSession: (conversation, round, code, label) => {
      sessionUse.opened = true;
      return sessions.executeInSession({
        runDir: input.runDir,
        taskId: input.taskId,
        conversation,
        round,
        code,
        label,
      });
    },
    charge: (usage, costUsd) => ledger.charge(record, usage, costUsd),
    async withinBudget(callKey, call) {
      const reply = await budget.around(callKey, call);
      ledger.charge(record, reply.usage, reply.costUsd);
      return reply;
    },
    note: setNote,
  });
  const withStage: AgentContext['inStage'] = async (stage, work) => {
    let note: string | undefined;
    let record: StageRecord | undefined;
    const value = await inStage(ledger, stage, (r) => {
      record = r;
      return work(toolsFor(r, (o) => (note = o)));
    });
    if (record && note) record.outcome = note;
    return value;
  };
  return {
    input,
    prepared,
    maxTurns: settings.maxTurns,
    settings,
    inStage: withStage,
    callModel: (stage, conversation, turn, user) =>
      withStage(stage, (tools) => tools.callModel(conversation, turn, user)),
    execute: (stage, testCase, code, label) =>
      inStage(ledger, stage, () =>
        execution.executeSolution({ runDir: input.runDir, taskId: input.taskId, testCase, code, label }),
      ),
  };
}

function pick(s: PreparedTask['agentSettings']): Partial<typeof DEFAULT_SETTINGS> {
  return s ? { maxTurns: s.maxTurns, maxRevisions: s.maxRevisions } : {};
}
