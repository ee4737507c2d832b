import type {
  CandidateAskInput,
  CandidateCheckResult,
  CandidateRun,
} from '../../../activities/spreadsheetbench/checkedVote';
import type { ModelPaths } from '../../../benchmarks/spreadsheetbench/agents/officialPaths';
import { framedProgram } from '../../../benchmarks/spreadsheetbench/agents/checkedVote/frame';
import { CANDIDATES, REPAIRS } from '../../../benchmarks/spreadsheetbench/agents/checkedVote/settings';
import { candidateOutputFolder } from '../../../benchmarks/spreadsheetbench/agents/checkedVote/folders';
import { settled } from '../../../benchmarks/spreadsheetbench/agents/checkedVote/vote';
import { callKeyOf } from '../../../lib/llm/callKey';
import { bookkeeping, execution, executionBatch, llm, recalcOn } from '../activities';
import type { Agent, AgentContext, StageTools } from './agent';

/** What one candidate ended with: its last attempt's label, code and check. */
interface Tried {
  label: string;
  code: string;
  check?: CandidateCheckResult;
  problem?: string;
}

/**
 * checked_vote, our own agent: the workbook as a spreadsheet user sees it (view), then up to CANDIDATES candidates,
 * each a `solve(wb)` run in the harness's frame on every test case's input, checked without the answers and repaired
 * from the check's feedback up to REPAIRS times; then the vote by agreement of the answer cells, and the submission
 * (the unchanged inputs when no candidate passed). Ledger stages: `view`, `cand-<k>.<attempt>` (one model call, the
 * executions `cand-<k>.<attempt>-tc<N>`, the recalculation and the check), `vote`. Sampling stops early once more than
 * half of the planned candidates agree.
 */
export const checkedVoteAgent: Agent = async (ctx) => {
  const { paths } = await ctx.inStage('view', () => execution.checkedVoteView(taskRef(ctx)));
  const tried: Tried[] = [];
  for (let k = 1; k <= CANDIDATES; k++) {
    tried.push(await candidate(ctx, k, paths));
    const ballots = tried.map((t) => ({ passed: t.check?.passed ?? false }));
    if (
      settled(
        ballots,
        tried.map((t) => t.check?.digest),
        CANDIDATES,
      )
    )
      break;
  }
  const choice = await ctx.inStage('vote', async (tools) => {
    const chosen = await bookkeeping.checkedVoteChoose({
      ...taskRef(ctx),
      candidates: tried.map((t) => ({ label: t.label, code: t.code })),
    });
    tools.note(chosen.reason);
    return chosen;
  });
  const whyNot = tried.map((t) => `${t.label}: ${t.problem ?? t.check?.problems[0] ?? 'failed'}`).join('; ');
  return {
    solution: choice.code,
    conversation: `cand-${choice.chosen ? choice.chosen.slice('cand-'.length).split('.')[0] : 1}`,
    executedTestCases: ctx.prepared.testCases,
    problem: choice.chosen ? undefined : `${choice.reason} (${whyNot})`,
  };
};

/** One candidate: a first reply, then repairs while its check fails (or its reply has no code) and repairs remain. */
async function candidate(ctx: AgentContext, k: number, paths: ModelPaths): Promise<Tried> {
  let after: CandidateAskInput['after'];
  let last: Tried = { label: `cand-${k}.0`, code: '' };
  for (let attempt = 0; attempt <= REPAIRS; attempt++) {
    const label = `cand-${k}.${attempt}`;
    last = await ctx.inStage(label, (tools) => attemptOnce(ctx, tools, { k, attempt, label, after, paths }));
    if (last.check?.passed) return last;
    after = last.check ? { check: label } : { noCode: last.problem ?? 'no code' };
  }
  return last;
}

async function attemptOnce(
  ctx: AgentContext,
  tools: StageTools,
  at: { k: number; attempt: number; label: string; after: CandidateAskInput['after']; paths: ModelPaths },
): Promise<Tried> {
  const callKey = callKeyOf([ctx.input.runId, ctx.input.taskId, `cand-${at.k}`, at.attempt], ctx.input.rerunTag);
  const reply = await tools.withinBudget(callKey, () =>
    llm.checkedVoteAsk({ ...taskRef(ctx), candidate: at.k, attempt: at.attempt, callKey, after: at.after }),
  );
  if (reply.code === undefined) {
    tools.note(`no code: ${reply.problem}`);
    return { label: at.label, code: '', problem: reply.problem };
  }
  const runs = await runOnEveryInput(ctx, at.label, framedProgram(reply.code, at.paths));
  const check = await bookkeeping.checkedVoteCheck({ ...taskRef(ctx), label: at.label, runs });
  tools.note(
    check.passed
      ? `passed the checks (answer cells ${check.digest})`
      : `failed: ${check.problems.slice(0, 3).join('; ')}`,
  );
  return { label: at.label, code: reply.code, check };
}

/** The framed program on every test case (fresh sandbox each), outputs kept aside, then recalculated for the check. */
async function runOnEveryInput(ctx: AgentContext, label: string, program: string): Promise<CandidateRun[]> {
  const cases = ctx.prepared.testCases;
  const results = await executionBatch.executeOnTestCases({
    ...taskRef(ctx),
    code: program,
    runs: cases.map((testCase) => ({ testCase, label: `${label}-tc${testCase}` })),
    outputFolder: candidateOutputFolder(label),
  });
  const runs = results.map((r, i) => ({
    testCase: cases[i],
    error: r.error,
    timedOut: r.timedOut,
    outputProduced: r.outputProduced,
    ...(r.keptAt ? { keptAt: r.keptAt } : {}),
  }));
  const kept = runs.flatMap((r) => (r.keptAt ? [r.keptAt] : []));
  if (ctx.input.recalcTaskQueue && kept.length)
    await recalcOn(ctx.input.recalcTaskQueue, kept.length).recalcWorkbooks({ paths: kept });
  return runs;
}

function taskRef(ctx: AgentContext) {
  return { runDir: ctx.input.runDir, taskId: ctx.input.taskId };
}
