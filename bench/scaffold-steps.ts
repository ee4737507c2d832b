/**
 * Time per step of SpreadsheetBench 2's scaffold, on generated v2 tasks (test/spreadsheetbench2/fixtures/
 * make_v2_tasks.py) with an instant scripted model, the real bwrap sandbox and LibreOffice recalculation, through
 * Temporal with an in-process worker (concurrency 1 by default, so steps do not wait on each other):
 * - shell step, model call excluded: inside the activity (fresh sandbox, /tmp and shell state carried, command run)
 *   and as Temporal sees the activity (scheduled → completed), per command kind;
 * - model call: inside the activity (history rebuilt from the run folder, the request, the reply recorded) and as
 *   Temporal sees it;
 * - whole step, model call included: from the model call's scheduling to its shell step's completion.
 * Run: node --import tsx bench/scaffold-steps.ts [--concurrency 1] [--tasks fm0,tpl0,vis0,dbg_plain,dbg_embedded]
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runToEnd, startBenchmarkRun, startE2E } from '../test/helpers/e2e';
import { runPython } from '../test/scoring/oracle';
import { SCAFFOLD_SOLVED_TASKS, scaffoldScript } from '../test/helpers/scaffoldScript';
import { replyRecordSchema, shellRecordSchema } from '../benchmarks/spreadsheetbench2/scaffold/episodeFiles';

const { values } = parseArgs({
  options: { concurrency: { type: 'string', default: '1' }, tasks: { type: 'string' } },
});
const tasks = values.tasks ? values.tasks.split(',') : SCAFFOLD_SOLVED_TASKS;

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return `mean ${mean.toFixed(0)} ms  p50 ${q(0.5).toFixed(0)} ms  p95 ${q(0.95).toFixed(0)} ms  (n=${xs.length})`;
}

/** What kind of command a step ran (the scripted solver's five steps). */
function kindOf(action: string): string {
  if (action.startsWith('view_xlsx')) return 'view_xlsx (openpyxl load, list)';
  if (action.startsWith('cat >')) return 'bash: write /tmp/solve.py';
  if (action.startsWith('cd /tmp')) return 'bash: cd + export';
  if (action.startsWith('python3')) return 'bash: python3 solve.py (openpyxl edit + save)';
  if (action.startsWith('soffice')) return 'bash: soffice --headless --convert-to xlsx (LibreOffice in the sandbox)';
  return action.split(' ')[0];
}

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'sb2-scaffold-bench-'));
  runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
  const env = await startE2E(scaffoldScript({ answerPath: '/nonexistent', repoDir: '/nonexistent', hostUrl: '' }), {
    config: { run: { concurrency: Number(values.concurrency) } },
  });
  try {
    const started = Date.now();
    const run = await startBenchmarkRun(env, { dataset: path.join(tmp, 'data'), agent: 'swe_agent', tasks });
    const final = await runToEnd(env, run);
    const wall = Date.now() - started;
    const inShell = new Map<string, number[]>();
    const inModel: number[] = [];
    for (const id of tasks) {
      const dir = path.join(run.runDir, 'tasks', id, 'scaffold');
      for (const f of readdirSync(dir)) {
        const json: unknown = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
        if (f.endsWith('-shell.json')) {
          const r = shellRecordSchema.parse(json);
          const k = kindOf(r.action);
          inShell.set(k, [...(inShell.get(k) ?? []), r.wallMs]);
        } else if (f.endsWith('-reply.json')) inModel.push(replyRecordSchema.parse(json).wallMs);
      }
    }
    const temporalShell: number[] = [];
    const temporalModel: number[] = [];
    const wholeStep: number[] = [];
    for (const id of tasks) {
      const history = await env.client.workflow.getHandle(`${run.runId}/task/${id}`).fetchHistory();
      const scheduled = new Map<string, { type: string; at: number }>();
      let modelScheduledAt: number | undefined;
      for (const e of history.events ?? []) {
        const at = ms(e.eventTime);
        const sched = e.activityTaskScheduledEventAttributes;
        if (sched) {
          const type = sched.activityType?.name ?? '';
          scheduled.set(String(e.eventId), { type, at });
          if (type === 'v2ScaffoldModelCall') modelScheduledAt = at;
        }
        const done = e.activityTaskCompletedEventAttributes;
        if (done) {
          const s = scheduled.get(String(done.scheduledEventId));
          if (s?.type === 'v2ScaffoldModelCall') temporalModel.push(at - s.at);
          if (s?.type === 'v2ScaffoldShellStep') {
            temporalShell.push(at - s.at);
            if (modelScheduledAt !== undefined) wholeStep.push(at - modelScheduledAt);
          }
        }
      }
    }
    const lines = [
      `scaffold steps: ${tasks.length} tasks, concurrency ${values.concurrency}, done ${final.done}, accuracy ${(final.passRateHard * 100).toFixed(0)}%, wall ${(wall / 1000).toFixed(1)} s, load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
      'shell step, model call excluded (inside the activity: fresh sandbox, /tmp and state carried, command):',
      ...[...inShell].map(([k, xs]) => `  ${k}: ${stats(xs)}`),
      `  all: ${stats([...inShell.values()].flat())}`,
      `shell step activity as Temporal sees it (scheduled → completed): ${stats(temporalShell)}`,
      `model call activity, instant scripted model (inside / as Temporal sees it): ${stats(inModel)} / ${stats(temporalModel)}`,
      `whole step, model call included (model call scheduled → its shell step completed): ${stats(wholeStep)}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await env.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
