import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import { FailureTypes } from '../../lib/failureTypes';
import { executionWorkDir } from '../workDirs';
import { cachedModelCall, costOfResponse } from '../llm/modelCall';
import type { WorkerDeps } from '../deps';
import { executeWithFiles } from './sandboxProgram';
import type { ChatMessage } from '../../lib/llm/types';
import { conversationUpTo, writeConversation } from '../../lib/runStore/conversationStore';
import { pathExists, readJsonOr, writeFileAtomic, writeJsonAtomic } from '../../lib/runStore/files';
import { taskKey } from '../../lib/runStore/taskRecord';
import { readTextIfPresent } from '../../lib/json';
import { sheetRun, type SheetRun } from '../../benchmarks/spreadsheetbench/run';
import { testCaseFiles } from '../../benchmarks/spreadsheetbench/dataset';
import { modelPaths, type ModelPaths } from '../../benchmarks/spreadsheetbench/agents/officialPaths';
import { workbookViewProgram } from '../../benchmarks/spreadsheetbench/agents/checkedVote/view';
import { PYTHON_SYSTEM_PROMPT, taskPrompt } from '../../benchmarks/spreadsheetbench/agents/checkedVote/prompt';
import { solveCodeOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/frame';
import { MissingEvidence } from '../../benchmarks/spreadsheetbench/agents/checkedVote/missingEvidence';
import {
  FORMULA_MAX_TOKENS,
  PYTHON_MAX_TOKENS,
  SAMPLE_TEMPERATURE,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/settings';
import {
  formulaRegionOf,
  type FormulaRegion,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaRegion';
import { mendedFormulaOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaMend';
import { openWorkbookValues } from '../../benchmarks/workbook/ooxmlReader';
import { formulaSolveCode } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaProgram';
import {
  FORMULA_SYSTEM_PROMPT,
  formulaRepairMessage,
  formulaTaskPrompt,
  noFormulaMessage,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaPrompt';
import { readRegion, type RegionRead } from '../../benchmarks/spreadsheetbench/agents/checkedVote/regionCells';
import { referenceNotes } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaReferences';
import { writesOutsideRegion } from '../../benchmarks/spreadsheetbench/agents/checkedVote/strayWrites';
import {
  checkCandidate,
  errorsNamedIn,
  regionLeftAlone,
  type CaseEvidence,
  type CheckResult,
  type Problem,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/checks';
import { formulaFindings } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formulaProblems';
import {
  formulaToExtendOf,
  keepsWhole,
  quotedFormulaProblems,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/quotedFormula';
import { exampleProblems, exampleTableOf } from '../../benchmarks/spreadsheetbench/agents/checkedVote/exampleTable';
import { withSwaps, type ReferenceSwap } from '../../benchmarks/spreadsheetbench/agents/checkedVote/causeMends';
import { noCodeMessage, repairMessage } from '../../benchmarks/spreadsheetbench/agents/checkedVote/feedback';
import {
  CHECKED_VOTE_FOLDER,
  candidateOutputFolder,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/folders';
import {
  chooseSubmission,
  onlyExampleMismatch,
  type Ballot,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/vote';
import { chartsCountAsChange, chartsDiffer } from '../../benchmarks/workbook/chartChange';
import { formattingAdded } from '../../benchmarks/spreadsheetbench/agents/checkedVote/formattingChange';
import { repeatedOrFound, type Found } from '../../benchmarks/spreadsheetbench/agents/checkedVote/repeatedReply';

/** Everything checked_vote keeps of a task: tasks/<id>/checked-vote/ (view, outputs, checks, vote). */
const FOLDER = CHECKED_VOTE_FOLDER;

export interface CandidateAskInput {
  runDir: string;
  taskId: string;
  /** 1-based candidate; its conversation is `cand-<candidate>` (`formula-<candidate>` for a formula candidate). */
  candidate: number;
  /** 'formula': the reply is one Excel formula filled across the answer region; absent: a Python solve(wb). */
  kind?: CandidateKind;
  /** 0 = the first reply, r ≥ 1 = the r-th repair. */
  attempt: number;
  callKey: string;
  /** What the previous attempt needs fixed: its check record, or why its reply had no code. */
  after?: { check: string } | { noCode: string };
}

/** What a candidate's reply is: a Python `solve(wb)`, or one Excel formula the harness fills across the region. */
export type CandidateKind = 'python' | 'formula';

export interface CandidateAskResult {
  /** The solve(wb) to run (for a formula candidate, the harness's fill program around its formula). */
  code?: string;
  /** A formula candidate's formula (as mended). */
  formula?: string;
  /** What the harness mended in the reply's formula before running it (formulaMend.ts). */
  mends?: string[];
  problem?: string;
  /** The reply (a repair) gave back the code or formula that had failed, unchanged: it was not run. */
  repeated?: true;
  finishReason: string;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  cached: boolean;
}

/** An input whose answer region could not be read: evidence shown as absent. */
const NO_REGION: RegionRead = { cells: [], missingSheets: [] };

export interface CandidateRun {
  testCase: number;
  error: string;
  timedOut: boolean;
  outputProduced: boolean;
  keptAt?: string;
}

export interface CandidateCheckResult {
  passed: boolean;
  /** The problems, one short line each (the full record is in checked-vote/checks/<label>.json). */
  problems: string[];
  /** Hash of what the candidate wrote into the answer cells on every test case (equal hashes = full agreement). */
  digest: string;
  /** A failed formula with the reference swaps its causes name applied (causeMends.ts), for the harness to try. */
  mend?: CauseMend;
}

/** A formula the harness mended from its own check's causes: the formula, its fill program, and the swaps made. */
export interface CauseMend {
  formula: string;
  code: string;
  because: string;
}

export interface CandidateChoice {
  chosen?: string;
  reason: string;
  /** The chosen candidate's code (the solution of the official conversation log). */
  code: string;
}

export function checkedVoteActivities(deps: WorkerDeps) {
  return {
    /**
     * The workbook view of test case 1's input (computed once, kept in the task folder), made by workbook_view.py in
     * a sandbox that holds only that input. An input the program cannot open fails the task as a dataset error.
     */
    async checkedVoteView(input: { runDir: string; taskId: string }): Promise<CandidateView> {
      const ctx = await sheetRun(input.runDir);
      const task = ctx.task(input.taskId);
      const paths = modelPaths(task, ctx.official.outputsName, 1);
      const region = task.instruction_type.startsWith('Cell') ? formulaRegionOf(task.answer_position) : undefined;
      const formulaRegion = region ? { formulaRegion: region } : {};
      const file = viewPath(ctx, input.taskId);
      const kept = await readTextIfPresent(file);
      if (kept !== undefined) return { chars: kept.length, paths, ...formulaRegion };
      const [first] = await testCaseFiles(ctx.manifest.datasetDir, task, 1);
      if (!first)
        throw ApplicationFailure.nonRetryable(`task ${input.taskId}: no test case input`, FailureTypes.DatasetError);
      const result = await runFixedProgram(deps, ctx, input.taskId, 'view', first.inputPath, (inside) =>
        workbookViewProgram(`${inside}/${path.basename(first.inputPath)}`, task.answer_position),
      );
      if (result.timedOut || result.error.trim() || !result.stdout.trim()) {
        const why = result.timedOut ? 'timed out' : lastLine(result.error) || 'printed nothing';
        throw ApplicationFailure.nonRetryable(
          `task ${input.taskId}: cannot open ${path.basename(first.inputPath)} to view it: ${why}`,
          FailureTypes.DatasetError,
        );
      }
      await writeFileAtomic(file, result.stdout);
      return { chars: result.stdout.length, paths, ...formulaRegion };
    },

    /**
     * One model call of a candidate (its first reply or a repair), through the run's response cache. A formula
     * candidate's reply is capped at FORMULA_MAX_TOKENS and its formula becomes the harness's fill program.
     */
    async checkedVoteAsk(input: CandidateAskInput): Promise<CandidateAskResult> {
      const ctx = await sheetRun(input.runDir);
      const region = input.kind === 'formula' ? formulaRegionFor(ctx, input.taskId) : undefined;
      const conversation = conversationOf(input);
      const messages = await messagesFor(ctx, input, conversation, region);
      const { llm } = ctx.manifest;
      // A repair at temperature 0 mostly gives back the reply that failed (checked-vote-v4: ~40%): repairs sample.
      const temperature = input.candidate === 1 && input.attempt === 0 ? llm.temperature : SAMPLE_TEMPERATURE;
      const cap = region ? FORMULA_MAX_TOKENS : PYTHON_MAX_TOKENS;
      const maxTokens = Math.min(llm.maxTokens ?? cap, cap);
      const response = await cachedModelCall(
        deps,
        ctx,
        { model: llm.model, temperature, maxTokens, messages },
        input.callKey,
      );
      await writeConversation(ctx.layout, input.taskId, conversation, [
        ...messages,
        { role: 'assistant', content: response.text },
      ]);
      const names = region ? await namesOf(ctx, input.taskId) : { sheetnames: [], definedNames: [] };
      const parse = (text: string, finishReason: string): Found =>
        region ? programOfFormula(text, finishReason, region, names) : solveCodeOf(text, finishReason);
      const found = repeatedOrFound(parse(response.text, response.finishReason), input.attempt, messages, parse);
      return {
        ...('code' in found ? { code: found.code } : { problem: found.problem }),
        ...('repeated' in found && found.repeated ? { repeated: true as const } : {}),
        ...('formula' in found && found.formula !== undefined ? { formula: found.formula } : {}),
        ...('mends' in found && found.mends?.length ? { mends: found.mends } : {}),
        finishReason: response.finishReason,
        usage: response.usage,
        costUsd: costOfResponse(response, llm.model, deps),
        cached: response.cached,
      };
    },

    /** Checks a candidate's outputs (after recalculation) on every test case; the record keeps the full evidence. */
    async checkedVoteCheck(input: {
      runDir: string;
      taskId: string;
      label: string;
      runs: CandidateRun[];
      /** A formula candidate's formula: its repair request then asks for a corrected formula. */
      formula?: string;
    }): Promise<CandidateCheckResult> {
      const ctx = await sheetRun(input.runDir);
      const task = ctx.task(input.taskId);
      const inputs = await testCaseFiles(ctx.manifest.datasetDir, task);
      const cases: CaseEvidence[] = [];
      const charts = chartsCountAsChange(ctx.manifest);
      const missing = new MissingEvidence();
      const formatting = FORMATTING.test(task.instruction);
      for (const run of input.runs) {
        const inputFile = inputs.find((f) => f.index === run.testCase)?.inputPath;
        const inputRegion = inputFile
          ? await readRegion(inputFile, task.answer_position).catch(
              missing.or(`input ${run.testCase}'s answer region`, undefined),
            )
          : undefined;
        const output = run.keptAt ? await readOrWhy(run.keptAt, task.answer_position) : undefined;
        cases.push({
          testCase: run.testCase,
          error: run.error,
          timedOut: run.timedOut,
          outputProduced: run.outputProduced,
          output: output?.region,
          unreadable: output?.why,
          input: inputRegion ?? NO_REGION,
          ...(charts && inputFile && run.keptAt ? { chartsChanged: chartsDiffer(inputFile, run.keptAt) } : {}),
          ...(formatting && inputFile && run.keptAt
            ? { formattingAdded: formattingAdded(inputFile, run.keptAt, task.answer_position) }
            : {}),
          ...(inputFile && run.keptAt && output?.region && regionLeftAlone(output.region, inputRegion ?? NO_REGION)
            ? {
                strayWrites: await writesOutsideRegion(inputFile, run.keptAt, task.answer_position).catch(
                  missing.or(`test case ${run.testCase}'s cells changed outside the answer region`, [] as string[]),
                ),
              }
            : {}),
        });
      }
      const region = input.formula === undefined ? undefined : formulaRegionOf(task.answer_position);
      const found =
        region && input.formula
          ? await formulaFindings(
              inputs.map((f) => ({ testCase: f.index, file: f.inputPath })),
              input.formula,
              region,
            ).catch(missing.or("the formula's references on the inputs", { problems: [] as Problem[], swaps: [] }))
          : { problems: [], swaps: [] };
      const example = inputs[0]
        ? await openWorkbookValues(inputs[0].inputPath)
            .then((wb) => exampleTableOf(wb, task.answer_position))
            .catch(missing.or("the user's example of the result", undefined))
        : undefined;
      const byCase = input.runs.map((run) => ({
        testCase: run.testCase,
        inputFile: inputs.find((f) => f.index === run.testCase)?.inputPath,
        outputFile: run.keptAt,
      }));
      found.problems.push(
        ...(await exampleProblems(example, byCase).catch(
          missing.or("the outputs against the user's example", [] as Problem[]),
        )),
      );
      if (region && input.formula && inputs[0])
        found.problems.push(
          ...(await quotedFormulaProblems(task.instruction, input.formula, {
            file: inputs[0].inputPath,
            sheet: region.sheet,
          }).catch(missing.or("the user's quoted formula on the first input", [] as Problem[]))),
        );
      const check = checkCandidate(cases, found.problems, {
        formatting,
        allowedErrors: errorsNamedIn(task.instruction),
      });
      const mend = !check.passed && region && input.formula ? causeMend(input.formula, found.swaps, region) : undefined;
      const sample = cases.find((c) => c.output?.cells.length);
      const shown = sample && { testCase: sample.testCase, region: sample.output! };
      const first = input.runs[0]?.testCase;
      const firstInput = inputs.find((f) => f.index === first)?.inputPath;
      const notes =
        !check.passed && region && input.formula && firstInput
          ? await referenceNotes(firstInput, input.formula, region.sheet)
              .then((n) => ({ testCase: first, ...n }))
              .catch(missing.or("the formula's reference notes", undefined))
          : undefined;
      const feedback = check.passed
        ? undefined
        : region
          ? formulaRepairMessage(input.formula, region, check, shown, notes)
          : repairMessage(check, cases.length, shown);
      await writeJsonAtomic(checkPath(ctx, input.taskId, input.label), {
        label: input.label,
        ...check,
        feedback,
        runs: input.runs,
        ...(input.formula === undefined ? {} : { formula: input.formula }),
        ...(missing.reasons.length ? { evidenceMissing: missing.reasons } : {}),
      });
      return {
        passed: check.passed,
        problems: check.problems.map((p) => `${p.testCase ? `tc${p.testCase} ` : ''}${p.kind}: ${firstLine(p.detail)}`),
        digest: digestOf(check),
        ...(mend ? { mend } : {}),
      };
    },

    /**
     * The vote among the checked candidates (by label), then the submission: the chosen candidate's outputs become
     * the test cases' outputs; when none passed, each output is the unchanged input.
     */
    async checkedVoteChoose(input: {
      runDir: string;
      taskId: string;
      candidates: { label: string; code: string }[];
    }): Promise<CandidateChoice> {
      const ctx = await sheetRun(input.runDir);
      const extended = formulaToExtendOf(ctx.task(input.taskId).instruction);
      const ballots: Ballot[] = [];
      for (const c of input.candidates) {
        const record = await readJsonOr<(CheckResult & { runs: CandidateRun[]; formula?: string }) | undefined>(
          checkPath(ctx, input.taskId, c.label),
          undefined,
        );
        // A candidate whose replies had no code was never checked: it votes, and fails.
        ballots.push({
          id: c.label,
          passed: record?.passed ?? false,
          signature: record?.signature ?? [],
          onlyExample: onlyExampleMismatch(record),
          keepsUserFormula: !!extended && record?.formula !== undefined && keepsWhole(extended, record.formula),
        });
      }
      const vote = chooseSubmission(ballots);
      await submit(ctx, input.taskId, vote.chosen);
      await writeJsonAtomic(path.join(folder(ctx, input.taskId), 'vote.json'), {
        ...vote,
        ballots: ballots.map((b) => ({ id: b.id, passed: b.passed })),
      });
      const code = input.candidates.find((c) => c.label === vote.chosen)?.code ?? '';
      return { ...(vote.chosen ? { chosen: vote.chosen } : {}), reason: vote.reason, code };
    },
  };
}

/** The chosen candidate's kept outputs, or every input unchanged, become the official outputs. */
async function submit(ctx: SheetRun, taskId: string, chosen: string | undefined): Promise<void> {
  const task = ctx.task(taskId);
  for (const files of await testCaseFiles(ctx.manifest.datasetDir, task)) {
    const target = ctx.official.outputPath(taskId, files.index);
    await mkdir(path.dirname(target), { recursive: true });
    const kept = chosen ? candidateOutput(ctx, taskId, chosen, files.index) : undefined;
    if (kept && (await pathExists(kept))) await copyFile(kept, target);
    else if (!chosen) await copyFile(files.inputPath, target);
    else await rm(target, { force: true });
  }
}

function candidateOutput(ctx: SheetRun, taskId: string, label: string, testCase: number): string {
  const id = taskKey(ctx.task(taskId).id);
  return path.join(ctx.layout.taskDir(taskId), candidateOutputFolder(label), `${testCase}_${id}_output.xlsx`);
}

/** The view activity's answer: the view's size, the model paths and, for a cell-level task, its formula region. */
export interface CandidateView {
  chars: number;
  paths: ModelPaths;
  /** Set when formula candidates can fill the answer region (a cell-level task, one rectangle of cells). */
  formulaRegion?: FormulaRegion;
}

function conversationOf(input: CandidateAskInput): string {
  return `${input.kind === 'formula' ? 'formula' : 'cand'}-${input.candidate}`;
}

function formulaRegionFor(ctx: SheetRun, taskId: string): FormulaRegion {
  const region = formulaRegionOf(ctx.task(taskId).answer_position);
  if (!region)
    throw ApplicationFailure.nonRetryable(
      `task ${taskId}: a formula candidate was asked for, but the answer position is not one rectangle of cells`,
      FailureTypes.DatasetError,
    );
  return region;
}

/**
 * A formula reply as a candidate: the harness's fill program around the formula (mended where a slip is unambiguous),
 * or why there is none (no formula, a broken one, an unknown function, a sheet the workbook does not have).
 */
function programOfFormula(
  reply: string,
  finishReason: string,
  region: FormulaRegion,
  names: { sheetnames: string[]; definedNames: string[] },
): { code: string; formula: string; mends: string[] } | { problem: string } {
  const found = mendedFormulaOf(reply, finishReason, names);
  if (!('formula' in found)) return found;
  return { code: formulaSolveCode(found.formula, region), formula: found.formula, mends: found.mends };
}

/** An instruction asking for formatting: a colour written as a value is then not an answer (checks.ts). */
const FORMATTING = /\b(colou?r|highlight|fill|conditional(ly)? format)/i;

/** The failed formula with the swaps applied, when they change it. */
function causeMend(formula: string, swaps: ReferenceSwap[], region: FormulaRegion): CauseMend | undefined {
  const mended = withSwaps(formula, swaps);
  if (mended === formula) return undefined;
  const because = swaps.map((s) => `${s.from} -> ${s.to} (${s.because})`).join(', ');
  return { formula: mended, code: formulaSolveCode(mended, region), because };
}

/** Test case 1's sheet and defined names (host side, from the workbook's index; inputs share their layout). */
async function namesOf(ctx: SheetRun, taskId: string): Promise<{ sheetnames: string[]; definedNames: string[] }> {
  const [first] = await testCaseFiles(ctx.manifest.datasetDir, ctx.task(taskId), 1);
  if (!first) throw ApplicationFailure.nonRetryable(`task ${taskId}: no test case input`, FailureTypes.DatasetError);
  const { sheetnames, definedNames } = await openWorkbookValues(first.inputPath);
  return { sheetnames, definedNames };
}

/** [system, task prompt] for a first reply; the conversation so far and the repair request for a repair. */
async function messagesFor(
  ctx: SheetRun,
  input: CandidateAskInput,
  conversation: string,
  region: FormulaRegion | undefined,
): Promise<ChatMessage[]> {
  const task = ctx.task(input.taskId);
  if (input.attempt === 0 || !input.after) {
    const view = await readFile(viewPath(ctx, input.taskId), 'utf8');
    return [
      { role: 'system', content: region ? FORMULA_SYSTEM_PROMPT : PYTHON_SYSTEM_PROMPT },
      { role: 'user', content: region ? formulaTaskPrompt(task, view, region) : taskPrompt(task, view) },
    ];
  }
  const history = await conversationUpTo(ctx.layout, input.taskId, conversation, 1 + 2 * input.attempt);
  const after = input.after;
  const fallback = region
    ? `Your formula did not pass the checks. Reply with the corrected formula for ${region.first}.`
    : 'Your solve(wb) did not pass the checks. Reply with the complete corrected solve(wb).';
  const text =
    'noCode' in after
      ? region
        ? noFormulaMessage(after.noCode, region)
        : noCodeMessage(after.noCode)
      : ((await readJsonOr<{ feedback?: string } | undefined>(checkPath(ctx, input.taskId, after.check), undefined))
          ?.feedback ?? fallback);
  return [...history, { role: 'user', content: text }];
}

async function readOrWhy(file: string, answerPosition: string): Promise<{ region?: RegionRead; why?: string }> {
  try {
    return { region: await readRegion(file, answerPosition) };
  } catch (err) {
    return { why: `the output workbook could not be read: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** A fixed program (no model code) on one input in a fresh sandbox that holds only a copy of that input. */
async function runFixedProgram(
  deps: WorkerDeps,
  ctx: SheetRun,
  taskId: string,
  label: string,
  inputPath: string,
  program: (workDirInside: string) => string,
) {
  const workDir = await executionWorkDir(deps.config, ctx.manifest.runId, taskId, `checked-vote-${label}`);
  return executeWithFiles(deps, workDir, [inputPath], program, []);
}

function folder(ctx: SheetRun, taskId: string): string {
  return path.join(ctx.layout.taskDir(taskId), FOLDER);
}

function viewPath(ctx: SheetRun, taskId: string): string {
  return path.join(folder(ctx, taskId), 'view.txt');
}

function checkPath(ctx: SheetRun, taskId: string, label: string): string {
  return path.join(folder(ctx, taskId), 'checks', `${label}.json`);
}

function digestOf(check: CheckResult): string {
  return createHash('sha256').update(JSON.stringify(check.signature)).digest('hex').slice(0, 16);
}

function firstLine(text: string): string {
  const lines = text.trim().split('\n');
  const line = lines.length > 1 ? lines[lines.length - 1] : lines[0];
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}
