/**
 * DSBench questions per second with an instant scripted model (answers and judge replies without latency): what the
 * harness itself costs per question (Temporal scheduling, the question's activities, the judge, bookkeeping), and the
 * workbook text prepared once per competition (sandboxed pandas).
 *
 *   node --import tsx bench/dsbench-throughput.ts [--competitions 8] [--questions 10] [--concurrency 8]
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runToEnd, startBenchmarkRun, startE2E } from '../test/helpers/e2e';

const { values: args } = parseArgs({
  options: {
    competitions: { type: 'string', default: '8' },
    questions: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
  },
});
const COMPETITIONS = Number(args.competitions);
const QUESTIONS = Number(args.questions);
const SAMPLE_COMPETITION = path.resolve(import.meta.dirname, '../data/dsbench-sample/data/00000101');

/** N copies of the sample's workbook competition, each with M multiple-choice questions. */
function syntheticDataset(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-dsbench-bench-'));
  const records: string[] = [];
  for (let c = 0; c < COMPETITIONS; c++) {
    const id = String(900 + c).padStart(8, '0');
    const comp = path.join(dir, 'data', id);
    mkdirSync(comp, { recursive: true });
    cpSync(SAMPLE_COMPETITION, comp, { recursive: true });
    const questions = Array.from({ length: QUESTIONS }, (_, q) => `question${q + 1}`);
    for (const q of questions)
      writeFileSync(path.join(comp, `${q}.txt`), `Synthetic ${q}: which option?\nA. one\nB. two`);
    records.push(JSON.stringify({ id, name: `bench-${id}`, url: 'u', questions, answers: questions.map(() => 'A') }));
  }
  writeFileSync(path.join(dir, 'data.json'), records.join('\n'));
  return dir;
}

async function main(): Promise<void> {
  const env = await startE2E(
    {
      rules: [{ name: 'judge', match: { callKey: /\/judge/ }, reply: 'True' }],
      fallback: 'The answer is A.',
      latencyMs: 0,
    },
    { config: { run: { concurrency: Number(args.concurrency) }, recalc: { engine: 'none' } } },
  );
  try {
    const run = await startBenchmarkRun(env, { dataset: syntheticDataset(), agent: 'model-only' });
    const t0 = Date.now();
    const final = await runToEnd(env, run);
    const seconds = (Date.now() - t0) / 1000;
    const answered = env.llm.log.filter((e) => e.answered).length;
    console.log(
      JSON.stringify({
        competitions: COMPETITIONS,
        questions: final.done,
        concurrency: Number(args.concurrency),
        llmCallsAnswered: answered,
        wallSeconds: Math.round(seconds * 100) / 100,
        questionsPerSecond: Math.round((final.done / seconds) * 100) / 100,
      }),
    );
  } finally {
    await env.close();
  }
}

await main();
