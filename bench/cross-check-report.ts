/**
 * What the cross-check did in an analysis-suite run: per request (a failed turn counts as not right; skipped ones are
 * left out), right or not (the suite's score), the pattern JIT chose, each comparison's verdict (agree; partial:
 * agreeing numbers that leave out values asked; disagree; inconclusive), whether the model was asked for the chart or
 * table its question asks for (the turn had saved none), which result was shown, whether the answer carries a 'Check
 * failed' note, and the time the second program's model steps took against the request's wall time; then the share
 * right per pattern, the flagged answers right and wrong, and the time per question. Reads the run folder only (results/, the conversations).
 * With --rescore, each scored request is also scored again with the suite's answers as they are now (data/analysis,
 * e.g. after the values check was added): "right" is then the rescored verdict, the recorded one shown beside it.
 *
 *   node --import tsx bench/cross-check-report.ts <runDir> [--rescore]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECOND_PROGRAM_AGENT } from '../analysis/conversation/crossCheckPrompts';
import { CHECK_FAILED_LEAD } from '../analysis/grounding/correctnessNote';
import { readEvents } from '../analysis/conversation/eventLog';
import { conversationLayout } from '../analysis/conversation/layout';
import { loadAnalysisSuite } from '../benchmarks/analysis/dataset';
import { turnOutput } from '../benchmarks/analysis/result';
import { scoreAnalysis } from '../benchmarks/analysis/score';

interface Result {
  taskId: string;
  pattern: string;
  chosenPattern?: string;
  status: string;
  pass: boolean;
  reason: string;
  wallMs: number;
  conversationDir?: string;
}

interface Row {
  id: string;
  pattern: string;
  pass: boolean;
  /** The verdict recorded by the run (differs from pass only with --rescore). */
  recorded: boolean;
  verdicts: string;
  /** The turn asked the model once for the chart or table its question asks for (none was saved). */
  outputAsked: boolean;
  shown: string;
  flagged: boolean;
  secondS: number;
  wallS: number;
}

const runDir = process.argv[2];
const rescore = process.argv.includes('--rescore');
if (!runDir || !existsSync(path.join(runDir, 'results')))
  throw new Error(`usage: cross-check-report.ts <runDir> (a run folder with results/): got ${runDir ?? 'nothing'}`);
const { answers } = await loadAnalysisSuite(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../data/analysis'),
);

const results = readdirSync(path.join(runDir, 'results'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(path.join(runDir, 'results', f), 'utf8')) as Result)
  .filter((r) => r.status !== 'skipped');
const rows = (await Promise.all(results.map(async (r) => ({ ...rowOf(r), pass: await rightNow(r) })))).sort((a, b) =>
  a.id.localeCompare(b.id),
);

process.stdout.write(
  'request  pattern         right  recorded  cross-check verdicts        output asked  shown    flagged  2nd-program s  wall s\n',
);
for (const r of rows)
  process.stdout.write(
    `${r.id.padEnd(8)} ${r.pattern.padEnd(15)} ${(r.pass ? 'yes' : 'no').padEnd(6)} ${(r.recorded ? 'yes' : 'no').padEnd(9)} ${r.verdicts.padEnd(27)} ${(r.outputAsked ? 'yes' : 'no').padEnd(13)} ${r.shown.padEnd(8)} ${(r.flagged ? 'yes' : 'no').padEnd(8)} ${r.secondS.toFixed(0).padStart(13)} ${r.wallS.toFixed(0).padStart(7)}\n`,
  );
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
for (const pattern of [...new Set(rows.map((r) => r.pattern))].sort()) {
  const of = rows.filter((r) => r.pattern === pattern);
  process.stdout.write(
    `${pattern}: ${of.filter((r) => r.pass).length}/${of.length} right${rescore ? ` (recorded ${of.filter((r) => r.recorded).length}/${of.length})` : ''}, ${mean(of.map((r) => r.wallS)).toFixed(0)} s per question\n`,
  );
}
const flagged = rows.filter((r) => r.flagged);
process.stdout.write(
  `all: ${rows.filter((r) => r.pass).length}/${rows.length} right; flagged ${flagged.length} (${flagged.filter((r) => !r.pass).length} of them wrong); ` +
    `${mean(rows.map((r) => r.wallS)).toFixed(0)} s per question, of which the second program's model steps ${mean(rows.map((r) => r.secondS)).toFixed(0)} s\n`,
);

function rowOf(r: Result): Row {
  const dir = path.resolve(runDir, r.conversationDir ?? '');
  const events = readJsonLines(path.join(dir, 'events.jsonl'));
  const checks = events
    .filter((e) => e.type === 'step' && e.data?.kind === 'cross_check')
    .map((e) => verdictOf(e.data!.text ?? ''));
  const answer = String(events.find((e) => e.type === 'answer')?.data?.text ?? '');
  const record = readJson(path.join(dir, 'turns', 't1', 'cross-check.json')) as
    { use?: string; verdict?: string } | undefined;
  return {
    id: r.taskId,
    pattern: r.pattern === 'auto' ? `auto→${r.chosenPattern ?? '?'}` : r.pattern,
    pass: r.pass,
    recorded: r.pass,
    verdicts: checks.join(', ') || (r.status === 'failed' ? '(turn failed)' : '(not run)'),
    outputAsked: events.some((e) => e.type === 'step' && String(e.data?.stepId ?? '').endsWith('-requested-output')),
    shown: record?.verdict === 'disagree' && record.use === 'second' ? 'second' : 'first',
    flagged: answer.includes(CHECK_FAILED_LEAD),
    secondS: secondProgramMs(path.join(dir, 'debug')) / 1000,
    wallS: r.wallMs / 1000,
  };
}

/** The request's verdict: as recorded, or (--rescore) scored again with the suite's current answers. */
async function rightNow(r: Result): Promise<boolean> {
  if (!rescore || r.status !== 'scored' || !r.conversationDir || !answers[r.taskId]) return r.pass;
  const dir = path.resolve(runDir, r.conversationDir);
  const events = await readEvents(conversationLayout(dir));
  if (events.find((e) => e.type === 'turn_ended')?.data.status !== 'completed') return r.pass;
  return (await scoreAnalysis(answers[r.taskId], turnOutput(dir, events))).pass;
}

function verdictOf(text: string): string {
  if (text.includes('they agree, but the answer leaves out')) return 'partial';
  if (text.includes('they agree')) return 'agree';
  if (text.startsWith('Nothing to compare')) return 'inconclusive';
  return 'disagree';
}

function secondProgramMs(debugDir: string): number {
  if (!existsSync(debugDir)) return 0;
  return readdirSync(debugDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => readJson(path.join(debugDir, f)) as { agent?: string; kind?: string; timing?: { modelMs?: number } })
    .filter((s) => s?.agent === SECOND_PROGRAM_AGENT && s.kind === 'act')
    .reduce((sum, s) => sum + (s.timing?.modelMs ?? 0), 0);
}

function readJson(file: string): unknown {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

function readJsonLines(
  file: string,
): Array<{ type: string; data?: { kind?: string; text?: string; stepId?: string } }> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { type: string; data?: { kind?: string; text?: string; stepId?: string } });
}
