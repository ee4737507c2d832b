import type { Command } from 'commander';
import { benchmarkNamed } from '../../benchmarks';
import {
  TaskViewError,
  type DiffValue,
  type TaskView,
  type TestCaseView,
  type TrajectoryStep,
} from '../../benchmarks/report/taskView';
import { readManifest } from '../../lib/runStore/manifest';
import { tokenPartsText } from '../../benchmarks/report/tokenParts';
import { CliError, EXIT } from '../exitCodes';
import { unpricedModelsOf } from '../../client/runPrices';
import { findRunFolder } from '../runRef';

/** `sheetbench show RUN TASK [--json] [--epoch N]`: why a task passed or failed, cell by cell, and what the agent did. */
export function registerShowCommand(program: Command): void {
  program
    .command('show')
    .description(
      "one task of a run: its instruction and answer position, each test case's verdict with the cells that differ, and the agent's trajectory (prompts, replies, code, execution output, tokens, cost, time)",
    )
    .argument('<run>', 'run folder or run id')
    .argument('<task>', 'task id (or attempt <id>@<epoch> of a run with repeats)')
    .option('--json', 'print the whole view as JSON (testCases[].mismatches[]: cell, expected, got, check)')
    .option('--epoch <n>', 'which attempt of a run with repeats (default 1)')
    .action(async (run: string, task: string, flags: { json?: boolean; epoch?: string }) => {
      const runDir = await findRunFolder(run);
      const manifest = await readManifest(runDir).catch((err: Error) => {
        throw new CliError(`cannot show a task of ${runDir}: ${err.message}`, EXIT.notFound);
      });
      const benchmark = benchmarkNamed(manifest.benchmark);
      if (!benchmark.describeTask)
        throw new CliError(`show does not know ${benchmark.title} runs yet (run ${manifest.runId})`, EXIT.usage);
      const epoch = flags.epoch === undefined ? undefined : Number(flags.epoch);
      if (epoch !== undefined && (!Number.isInteger(epoch) || epoch < 1))
        throw new CliError(`--epoch must be a whole number ≥ 1, got ${flags.epoch}`, EXIT.usage);
      let view: TaskView;
      try {
        view = await benchmark.describeTask(runDir, task, { epoch });
      } catch (err) {
        if (err instanceof TaskViewError) throw new CliError(err.message, EXIT.notFound);
        throw err;
      }
      const unpriced = await unpricedModelsOf(runDir);
      const unknown = unpriced.length
        ? [`cost unknown for ${unpriced.join(', ')}: no price was known, its calls are counted as $0`]
        : [];
      process.stdout.write(
        flags.json ? `${JSON.stringify(view, null, 2)}\n` : `${[...taskText(view), ...unknown].join('\n')}\n`,
      );
    });
}

const PREVIEW_CHARS = 600;

function clip(text: string, max = PREVIEW_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters; --json shows all)`;
}

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');
const value = (v: DiffValue) =>
  `${v.value === null ? '(empty)' : JSON.stringify(v.value)} (${v.type}${v.uncachedFormula ? ', formula without cached value' : ''})`;

export function taskText(v: TaskView): string[] {
  const lines = [
    `task ${v.taskId} of run ${v.runId} (${v.benchmark})${v.epochs.length > 1 || v.epoch > 1 ? `, attempt ${v.epoch} (recorded: ${v.epochs.join(', ')})` : ''}: ${v.status}`,
    `instruction: ${clip(v.instruction)}`,
    ...(v.answerPosition !== undefined
      ? [`answer position: ${v.answerPosition}${v.instructionType ? ` (${v.instructionType})` : ''}`]
      : []),
    ...(v.soft !== undefined ? [`score: soft ${v.soft.toFixed(3)}  hard ${v.hard}`] : []),
    ...(v.failure ? [`failure: ${v.failure.class}: ${v.failure.message}`] : []),
    ...v.notes,
  ];
  if (v.question) {
    const q = v.question;
    lines.push(
      `question: ${clip(q.question)}`,
      `expected: ${q.expected}`,
      `reply: ${clip(q.reply ?? '(none)')}`,
      `judge${q.judgeModel ? ` ${q.judgeModel}` : ''}: ${q.verdict ?? 'not judged'}${q.judgeReply !== undefined ? ` — ${clip(q.judgeReply, 200)}` : ''}`,
    );
  }
  for (const c of v.testCases) lines.push(...testCaseText(c));
  if (v.trajectory.length) lines.push('trajectory:', ...v.trajectory.flatMap(stepText));
  lines.push(
    `total: ${v.totals.llmCalls} LLM calls, ${v.totals.inputTokens} in / ${v.totals.outputTokens} out tokens${tokenPartsText(v.totals)}, $${v.totals.costUsd.toFixed(4)}, ${(v.totals.wallMs / 1000).toFixed(1)} s`,
  );
  return lines;
}

function testCaseText(c: TestCaseView): string[] {
  const head = `test case ${c.index}: ${c.pass ? 'pass' : 'FAIL'}${c.reason ? ` — ${c.reason}` : ''}`;
  const cells = c.mismatches.map(
    (m) =>
      `    ${m.cell}  expected ${value(m.expected)}  got ${value(m.got)}  [${m.kind ? `${m.kind} ` : ''}${m.check}]`,
  );
  const tally = (t: { correct: number; total: number; accuracy: number }) =>
    `${t.correct} of ${t.total} right (${t.accuracy.toFixed(4)})`;
  const facts = [
    ...(c.cells
      ? [
          `    regression cells (to keep): ${tally(c.cells.regression)}; modification cells (to change): ${tally(c.cells.modification)}`,
        ]
      : []),
    ...(c.omitted ? [`    … and ${c.omitted} more differing cells`] : []),
    ...(!c.diffRecorded ? ['    no cell diff recorded'] : []),
    ...(c.fill ? [`    the answer fills ${c.fill.filled} of ${c.fill.cells} checked cells`] : []),
    ...(c.inputPasses !== undefined
      ? [`    the unchanged input ${c.inputPasses ? 'already passes' : 'does not pass'}`]
      : []),
    ...(c.unreachable ? [`    unreachable: ${c.unreachable}`] : []),
    ...(c.output ? [`    output: ${c.output}`] : []),
  ];
  return [head, ...cells, ...facts];
}

function stepText(s: TrajectoryStep): string[] {
  const lines = [
    `  [${s.stage}] ${s.outcome} · ${s.llmCalls} LLM call${s.llmCalls === 1 ? '' : 's'} · ${s.inputTokens} in / ${s.outputTokens} out · $${s.costUsd.toFixed(4)} · ${(s.wallMs / 1000).toFixed(1)} s`,
  ];
  for (const x of s.exchanges)
    lines.push(
      `    prompt (${x.conversation}):`,
      indent(clip(x.prompt), '      '),
      ...(x.reasoning ? ['    reasoning:', indent(clip(x.reasoning), '      ')] : []),
      '    reply:',
      indent(clip(x.reply), '      '),
    );
  if (s.code) lines.push('    code:', indent(clip(s.code, 2000), '      '));
  for (const e of s.executions) {
    const out = [
      e.stdout && `stdout: ${clip(e.stdout, 400)}`,
      e.stderr && `stderr: ${clip(e.stderr, 400)}`,
      e.error && `error: ${clip(e.error, 400)}`,
      e.timedOut && 'timed out',
    ]
      .filter(Boolean)
      .join('\n');
    lines.push(
      `    execution ${e.label}${e.testCase !== undefined ? ` (test case ${e.testCase})` : ''}${e.durationMs !== undefined ? `, ${Math.round(e.durationMs)} ms` : ''}:`,
      indent(out || '(no output)', '      '),
    );
  }
  return lines;
}
