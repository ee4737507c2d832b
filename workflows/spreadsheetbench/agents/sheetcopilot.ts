import { ActivityFailure } from '@temporalio/workflow';
import type { CopilotAskInput } from '../../../activities/spreadsheetbench/sheetcopilot';
import { pathVariablesPrelude } from '../../../benchmarks/spreadsheetbench/agents/pathPrelude';
import {
  executionSucceeded,
  failureText,
  noCodeExecution,
  summarizeExecution,
  type ExecutionOutcome,
} from '../../../benchmarks/spreadsheetbench/agents/sheetcopilot/executionText';
import type {
  CopilotStageName,
  Exchange,
  FinalOutput,
  ReviseOutput,
  StageOutput,
} from '../../../benchmarks/spreadsheetbench/agents/sheetcopilot/stages';
import { execution, recalcOn } from '../activities';
import type { Agent, AgentContext, StageTools } from './agent';
import { copilot, copilotLlm } from '../activities';
import { callKeyOf } from '../../../lib/llm/callKey';

type Attempt = FinalOutput['attempts'][number];

/**
 * SheetCopilot v2 as the reference fork defines it (lowl6/SpreadsheetBench on GitHub: a public fork of
 * SpreadsheetBench whose `inference/sheetcopilot_v2.py` is the agent), six stages, each a durable activity whose
 * typed output is recorded in `tasks/<id>/stages/`: observe → understand → plan → implement → validate (execute,
 * recalculate, inspect, ask) → final (every test case, up to maxRevisions revisions each). Stages 1–5 run once per
 * task on test case 1.
 * A crash re-runs only the stage in flight (earlier results are in the workflow history); `rerun --from-stage K`
 * reads stages < K from their records.
 */
export const sheetCopilotAgent: Agent = async (ctx) => {
  const observe = await stage(ctx, 'observe', () => copilot.copilotObserve({ ...taskRef(ctx), testCase: 1 }));
  if (!observe.success) return giveUp(observe.problem ?? 'observation failed');
  await stage(ctx, 'understand', () => ask(ctx, { stage: 'understand' }));
  await stage(ctx, 'plan', () => ask(ctx, { stage: 'plan' }));
  const implement = await stage(ctx, 'implement', () => ask(ctx, { stage: 'implement' }));
  const prelude = pathVariablesPrelude(observe.paths);
  const validate = await stage(ctx, 'validate', () => validateOnFirstCase(ctx, implement, prelude));
  let code = validate.passed ? implement.code : (validate.correctedCode ?? implement.code);
  const finals: FinalOutput[] = [];
  for (const testCase of ctx.prepared.testCases) {
    const final = await ctx.inStage(`final-tc${testCase}`, (tools) =>
      finalOnTestCase(ctx, tools, testCase, code, prelude),
    );
    finals.push(final);
    const last = final.attempts[final.attempts.length - 1];
    if (final.success) code = last.code;
  }
  const failed = finals
    .filter((f) => !f.success)
    .map((f) => `tc${f.testCase}: ${f.attempts[f.attempts.length - 1].stopReason ?? 'failed'}`);
  return {
    solution: code,
    conversation: 'copilot-implement',
    executedTestCases: ctx.prepared.testCases,
    problem: implement.code || validate.correctedCode ? undefined : implement.exchange.problem,
    lastFeedback: failed.length ? `final execution failed on ${failed.join('; ')}` : undefined,
  };
};

function taskRef(ctx: AgentContext) {
  return { runDir: ctx.input.runDir, taskId: ctx.input.taskId };
}

function giveUp(problem: string) {
  return { solution: '', conversation: 'copilot-implement', executedTestCases: [], problem };
}

/** A stage run fresh, or (before `fromStage`) read back from its record: no LLM call, no execution. */
async function stage<N extends Exclude<CopilotStageName, 'final'>>(
  ctx: AgentContext,
  name: N,
  run: (tools: StageTools) => Promise<StageOutput<N>>,
): Promise<StageOutput<N>> {
  const k = ['observe', 'understand', 'plan', 'implement', 'validate'].indexOf(name) + 1;
  return ctx.inStage(name, async (tools) => {
    if (k < (ctx.input.fromStage ?? 1)) {
      tools.note('reused from record');
      return await copilot.copilotLoadStage({ ...taskRef(ctx), stage: name });
    }
    const output = await run(tools);
    const exchange = (output as { exchange?: Exchange }).exchange;
    if (exchange) tools.charge(exchange.usage, exchange.costUsd);
    const problem = exchange?.problem ?? (output as { problem?: string }).problem;
    if (problem) tools.note(problem);
    return output;
  });
}

type AskStage = Exclude<CopilotAskInput['stage'], 'validate' | 'revise'>;

function ask<S extends AskStage>(ctx: AgentContext, what: { stage: S }): Promise<StageOutput<S>> {
  return copilotLlm.copilotAsk({
    ...taskRef(ctx),
    stage: what.stage,
    callKey: callKey(ctx, what.stage),
    promptDir: ctx.input.promptDir,
  }) as Promise<StageOutput<S>>;
}

function callKey(ctx: AgentContext, name: string): string {
  return callKeyOf([ctx.input.runId, ctx.input.taskId, 'copilot', name], ctx.input.rerunTag);
}

/** Stage 5: execute on test case 1, recalculate a copy for real, read the answer cells, then ask pass/correct. */
async function validateOnFirstCase(
  ctx: AgentContext,
  implement: StageOutput<'implement'>,
  prelude: string,
): Promise<StageOutput<'validate'>> {
  const ran = await runCode(ctx, 1, implement.code, prelude, 'validate-tc1', implement.exchange.problem);
  let inspection = null;
  if (executionSucceeded(ran)) {
    const { path } = await copilot.copilotValidationCopy(taskRef(ctx));
    if (path) {
      const recalculated = ctx.input.recalcTaskQueue
        ? (await recalcOn(ctx.input.recalcTaskQueue).recalcWorkbook({ path })).ok
        : false;
      inspection = await copilot.copilotInspect({ ...taskRef(ctx), path, recalculated });
    }
  }
  const output = (await copilotLlm.copilotAsk({
    ...taskRef(ctx),
    stage: 'validate',
    callKey: callKey(ctx, 'validate'),
    promptDir: ctx.input.promptDir,
    code: implement.code,
    execution: ran,
    inspection,
  })) as StageOutput<'validate'>;
  const flags = inspection?.flags.map((f) => f.kind) ?? [];
  return {
    ...output,
    exchange: {
      ...output.exchange,
      problem:
        output.exchange.problem ??
        (output.passed ? undefined : `validation failed${flags.length ? ` (${flags.join(', ')})` : ''}`),
    },
  };
}

async function runCode(
  ctx: AgentContext,
  testCase: number,
  code: string,
  prelude: string,
  label: string,
  whyNoCode?: string,
): Promise<ExecutionOutcome> {
  if (!code.trim()) return noCodeExecution(whyNoCode ?? 'empty code');
  const result = await execution.executeSolution({ ...taskRef(ctx), testCase, code: prelude + code, label });
  return summarizeExecution(result);
}

/** Stage 6 on one test case: execute; on failure ask for a revision, until success or the revision budget ends. */
async function finalOnTestCase(
  ctx: AgentContext,
  tools: StageTools,
  testCase: number,
  startCode: string,
  prelude: string,
): Promise<FinalOutput> {
  const attempts: Attempt[] = [];
  let code = startCode;
  let ran = await runCode(ctx, testCase, code, prelude, `final-tc${testCase}`);
  attempts.push({ revision: 0, code, execution: ran, success: executionSucceeded(ran) });
  for (let revision = 1; !executionSucceeded(ran) && revision <= ctx.settings.maxRevisions; revision++) {
    const reply = await reviseOrWhy(ctx, { testCase, revision, code, error: failureText(ran) });
    if (typeof reply === 'string') {
      addReason(attempts[attempts.length - 1], reply);
      break;
    }
    tools.charge(reply.exchange.usage, reply.exchange.costUsd);
    if (!reply.code) {
      addReason(attempts[attempts.length - 1], `revision ${revision}: ${reply.exchange.problem ?? 'no code'}`);
      continue;
    }
    code = reply.code;
    ran = await runCode(ctx, testCase, code, prelude, `final-tc${testCase}-r${revision}`);
    attempts.push({ revision, code, execution: ran, success: executionSucceeded(ran) });
  }
  const last = attempts[attempts.length - 1];
  if (!last.success) addReason(last, `revision budget (${ctx.settings.maxRevisions}) ended it`);
  const final: FinalOutput = { stage: 'final', testCase, success: last.success, attempts };
  await copilot.copilotRecordFinal({ ...taskRef(ctx), final });
  tools.note(final.success ? `ok after ${last.revision} revision(s)` : `failed: ${last.stopReason}`);
  return final;
}

function addReason(attempt: Attempt, reason: string): void {
  attempt.stopReason = attempt.stopReason ? `${attempt.stopReason}; ${reason}` : reason;
}

/** A revision reply, or why there is none (the LLM call itself failed after its retries: the budget ends here). */
async function reviseOrWhy(
  ctx: AgentContext,
  what: { testCase: number; revision: number; code: string; error: string },
) {
  try {
    return (await copilotLlm.copilotAsk({
      ...taskRef(ctx),
      stage: 'revise',
      ...what,
      callKey: callKey(ctx, `revise-tc${what.testCase}-${what.revision}`),
      promptDir: ctx.input.promptDir,
    })) as ReviseOutput;
  } catch (err) {
    if (err instanceof ActivityFailure)
      return `revision ${what.revision} request failed: ${err.cause?.message ?? err.message}`;
    throw err;
  }
}
