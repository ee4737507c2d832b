import { patched } from '@temporalio/workflow';
import type {
  CandidateAskInput,
  CandidateCheckResult,
  CandidateKind,
  CandidateRun,
  CandidateView,
} from '../../../activities/spreadsheetbench/checkedVote';
import type { ModelPaths } from '../../../benchmarks/spreadsheetbench/agents/officialPaths';
import { framedProgram } from '../../../benchmarks/spreadsheetbench/agents/checkedVote/frame';
import {
  CANDIDATES,
  CANDIDATES_V4,
  CAUSE_MENDS,
  CANDIDATES_V9,
  EXTRA_FORMULA_CANDIDATES,
  EXTRA_PYTHON_CANDIDATES,
  FORMULA_CANDIDATES,
  FORMULA_REPAIRS,
  PYTHON_AFTER_FORMULAS,
  PYTHON_AFTER_FORMULAS_V4,
  REPAIRS,
  TIE_BREAK_CANDIDATES,
} from '../../../benchmarks/spreadsheetbench/agents/checkedVote/settings';
import { candidateOutputFolder } from '../../../benchmarks/spreadsheetbench/agents/checkedVote/folders';
import { settled, tied } from '../../../benchmarks/spreadsheetbench/agents/checkedVote/vote';
import { callKeyOf } from '../../../lib/llm/callKey';
import { bookkeeping, execution, executionBatch, llm, recalcOn } from '../activities';
import type { Agent, AgentContext, StageTools } from './agent';

/** What one candidate ended with: its last attempt's label, code and check. */
interface Tried {
  label: string;
  code: string;
  check?: CandidateCheckResult;
  problem?: string;
  /** Its last reply was a repair giving back the failed code or formula unchanged. */
  repeated?: boolean;
}

/**
 * Patch marker of the formula candidates (checked-vote-v2): a history recorded before it replays the Python-only
 * path (its view result carries no formula region either). workflows/VERSIONS.md.
 */
export const FORMULA_CANDIDATES_PATCH = 'checked-vote-formula-candidates';

/**
 * Patch marker of checked-vote-v4's smaller sampling budget (no Python fallback after formula candidates,
 * CANDIDATES_V4 Python candidates): a history recorded before it replays the counts it ran with. workflows/VERSIONS.md.
 */
export const V4_BUDGET_PATCH = 'checked-vote-v4-budget';

/**
 * Patch marker of checked-vote-v5's fresh candidates after a repeated repair (EXTRA_*_CANDIDATES): a history recorded
 * before it replays the planned counts only. workflows/VERSIONS.md.
 */
export const V5_RESAMPLE_PATCH = 'checked-vote-v5-resample';

/**
 * Patch marker of checked-vote-v7.2's tie-break (TIE_BREAK_CANDIDATES more candidates of a kind whose passing
 * candidates split into equal groups): a history recorded before it replays without. workflows/VERSIONS.md.
 */
export const V7_TIE_BREAK_PATCH = 'checked-vote-v7-tie-break';

/**
 * Patch marker of checked-vote-v9's Python budget (CANDIDATES_V9 candidates for a task without formula candidates): a
 * history recorded before it replays CANDIDATES_V4. workflows/VERSIONS.md.
 */
export const V9_CANDIDATES_PATCH = 'checked-vote-v9-candidates';

/**
 * Patch marker of checked-vote-v9's cause mends (a failed formula's check names reference swaps; the harness tries
 * them itself, CAUSE_MENDS in a row, before the model's repair): a history recorded before it has none.
 * workflows/VERSIONS.md.
 */
export const V9_CAUSE_MENDS_PATCH = 'checked-vote-v9-cause-mends';

/** One kind of candidate, how many of it to sample, and how many more may replace repairs that repeated. */
interface Phase {
  kind: CandidateKind;
  count: number;
  extra: number;
}

/**
 * checked_vote, our own agent: the workbook as a spreadsheet user sees it (view), then candidates, each a `solve(wb)`
 * run in the harness's frame on every test case's input, checked without the answers and repaired from the check's
 * feedback; then the vote by agreement of the answer cells over candidates of every kind, and the submission (the
 * unchanged inputs when no candidate passed). A cell-level task whose answer region is one rectangle first gets up
 * to FORMULA_CANDIDATES formula candidates (one Excel formula, filled across the region by the harness), and
 * PYTHON_AFTER_FORMULAS Python candidates when none of them passed; any other task up to CANDIDATES Python ones.
 * Ledger stages: `view`, `formula-<k>.<attempt>` / `cand-<k>.<attempt>` (one model call, the executions
 * `<stage>-tc<N>`, the recalculation and the check), `vote`. Sampling of a kind stops early once more than half of
 * its planned candidates agree.
 */
export const checkedVoteAgent: Agent = async (ctx) => {
  const withFormulas = patched(FORMULA_CANDIDATES_PATCH);
  const v4Budget = patched(V4_BUDGET_PATCH);
  const resample = patched(V5_RESAMPLE_PATCH);
  const tieBreak = patched(V7_TIE_BREAK_PATCH);
  const budget = { v4: v4Budget, v9: patched(V9_CANDIDATES_PATCH) };
  const mends = patched(V9_CAUSE_MENDS_PATCH);
  const view = await ctx.inStage('view', async (tools) => {
    const seen = await execution.checkedVoteView(taskRef(ctx));
    if (withFormulas && seen.formulaRegion && !ctx.input.recalcTaskQueue)
      tools.note('no recalculation queue: formula candidates could not be checked, so Python candidates only');
    return seen;
  });
  const tried: Tried[] = [];
  for (const phase of phasesFor(ctx, view, withFormulas, budget, resample)) {
    if (tried.some((t) => t.check?.passed)) break; // a later kind is only the fallback when none passed
    const ofPhase: Tried[] = [];
    let planned = phase.count;
    let tieBreaks = tieBreak ? TIE_BREAK_CANDIDATES : 0;
    for (let k = 1; k <= planned; k++) {
      const one = await candidate(ctx, { kind: phase.kind, k, paths: view.paths, mends });
      tried.push(one);
      ofPhase.push(one);
      if (one.repeated && planned < phase.count + phase.extra) planned++;
      const ballots = ofPhase.map((t) => ({ passed: t.check?.passed ?? false }));
      const digests = ofPhase.map((t) => t.check?.digest);
      if (settled(ballots, digests, phase.count)) break;
      if (k === planned && tieBreaks > 0 && tied(ballots, digests)) {
        planned++;
        tieBreaks--;
      }
    }
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
    conversation: choice.chosen ? choice.chosen.split('.')[0] : (tried[0]?.label.split('.')[0] ?? 'cand-1'),
    executedTestCases: ctx.prepared.testCases,
    problem: choice.chosen ? undefined : `${choice.reason} (${whyNot})`,
  };
};

/**
 * The kinds of candidates to try, in order: formula candidates first for a cell-level task whose region one formula
 * can fill (when the run recalculates: an uncalculated formula has no value to check), then Python as the fallback;
 * Python candidates only for every other task and for histories from before the formula candidates.
 */
function phasesFor(
  ctx: AgentContext,
  view: CandidateView,
  withFormulas: boolean,
  budget: { v4: boolean; v9: boolean },
  resample: boolean,
): Phase[] {
  const python = resample ? EXTRA_PYTHON_CANDIDATES : 0;
  if (withFormulas && view.formulaRegion && ctx.input.recalcTaskQueue)
    return [
      { kind: 'formula', count: FORMULA_CANDIDATES, extra: resample ? EXTRA_FORMULA_CANDIDATES : 0 },
      { kind: 'python', count: budget.v4 ? PYTHON_AFTER_FORMULAS_V4 : PYTHON_AFTER_FORMULAS, extra: 0 },
    ];
  const count = budget.v9 ? CANDIDATES_V9 : budget.v4 ? CANDIDATES_V4 : CANDIDATES;
  return [{ kind: 'python', count, extra: python }];
}

/** One candidate: a first reply, then repairs while its check fails (or its reply has no code) and repairs remain. */
async function candidate(
  ctx: AgentContext,
  { kind, k, paths, mends }: { kind: CandidateKind; k: number; paths: ModelPaths; mends: boolean },
): Promise<Tried> {
  const prefix = kind === 'formula' ? 'formula' : 'cand';
  const repairs = kind === 'formula' ? FORMULA_REPAIRS : REPAIRS;
  let after: CandidateAskInput['after'];
  let last: Tried = { label: `${prefix}-${k}.0`, code: '' };
  for (let attempt = 0; attempt <= repairs; attempt++) {
    const label = `${prefix}-${k}.${attempt}`;
    last = await ctx.inStage(label, (tools) => attemptOnce(ctx, tools, { kind, k, attempt, label, after, paths }));
    if (last.check?.passed) return last;
    const mended = mends && last.check?.mend ? await causeMends(ctx, label, last, paths) : undefined;
    if (mended?.check?.passed) return mended;
    after = last.check ? { check: label } : { noCode: last.problem ?? 'no code' };
  }
  return last;
}

async function attemptOnce(
  ctx: AgentContext,
  tools: StageTools,
  at: {
    kind: CandidateKind;
    k: number;
    attempt: number;
    label: string;
    after: CandidateAskInput['after'];
    paths: ModelPaths;
  },
): Promise<Tried> {
  const formula = at.kind === 'formula';
  const conversation = `${formula ? 'formula' : 'cand'}-${at.k}`;
  const callKey = callKeyOf([ctx.input.runId, ctx.input.taskId, conversation, at.attempt], ctx.input.rerunTag);
  const ask = { ...taskRef(ctx), candidate: at.k, attempt: at.attempt, callKey, after: at.after };
  const reply = await tools.withinBudget(callKey, () =>
    llm.checkedVoteAsk(formula ? { ...ask, kind: 'formula' } : ask),
  );
  if (reply.code === undefined) {
    tools.note(`no ${formula ? 'formula' : 'code'}: ${reply.problem}`);
    return { label: at.label, code: '', problem: reply.problem, repeated: reply.repeated === true };
  }
  const runs = await runOnEveryInput(ctx, at.label, framedProgram(reply.code, at.paths));
  const check = await bookkeeping.checkedVoteCheck({
    ...taskRef(ctx),
    label: at.label,
    runs,
    ...(reply.formula === undefined ? {} : { formula: reply.formula }),
  });
  const mended = reply.mends?.length ? ` (mended: ${reply.mends.join('; ')})` : '';
  const what = reply.formula === undefined ? (mended ? `the code${mended}: ` : '') : `${reply.formula}${mended}: `;
  tools.note(
    check.passed
      ? `${what}passed the checks (answer cells ${check.digest})`
      : `${what}failed: ${check.problems.slice(0, 3).join('; ')}`,
  );
  return { label: at.label, code: reply.code, check };
}

/**
 * The harness's own repairs of a failed formula (`<label>m1`, `<label>m2`): the reference swaps its check named,
 * applied and checked like any candidate, each on the last one's check, while they change the formula. The model's
 * repair that follows still answers its own formula's check.
 */
async function causeMends(ctx: AgentContext, label: string, failed: Tried, paths: ModelPaths): Promise<Tried> {
  let last = failed;
  const seen = new Set<string>();
  for (let n = 1; n <= CAUSE_MENDS; n++) {
    const mend = last.check?.mend;
    if (!mend || seen.has(mend.formula)) break;
    seen.add(mend.formula);
    const at = `${label}m${n}`;
    last = await ctx.inStage(at, async (tools) => {
      const runs = await runOnEveryInput(ctx, at, framedProgram(mend.code, paths));
      const check = await bookkeeping.checkedVoteCheck({ ...taskRef(ctx), label: at, runs, formula: mend.formula });
      const verdict = check.passed
        ? `passed the checks (answer cells ${check.digest})`
        : `failed: ${check.problems.slice(0, 3).join('; ')}`;
      tools.note(`${mend.formula} (the harness's mend: ${mend.because}): ${verdict}`);
      return { label: at, code: mend.code, check };
    });
    if (last.check?.passed) break;
  }
  return last;
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
