import { createReadStream, existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../../lib/scriptedLlm';
import { loadAnalysisSuite, requestText } from '../../benchmarks/analysis/dataset';
import type { AnalysisSummary } from '../../benchmarks/analysis/finalize';
import type { AnalysisRequestResult } from '../../benchmarks/analysis/result';
import { analysisSummaryLines } from '../../benchmarks/analysis/summaryLines';
import { writeAnalysisReport } from '../../benchmarks/analysis/report';
import { runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { referenceAnalyst } from '../helpers/referenceAnalyst';

const SUITE = path.resolve(__dirname, '../../data/analysis');
/** a01 answered right, a03 answered wrong on purpose, a07 needs the data server (none is set: skipped). */
const TASKS = ['a01', 'a03', 'a07'];

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** `run --dataset data/analysis`: real Temporal, the real sandbox, the scripted reference model (one wrong answer). */
describe('the analysis suite as a benchmark, end to end', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: Awaited<ReturnType<typeof runToEnd>>;
  const result = (id: string) => readJson<AnalysisRequestResult>(path.join(run.runDir, 'results', `${id}.json`));

  beforeAll(async () => {
    const suite = await loadAnalysisSuite(SUITE);
    const reference = referenceAnalyst(suite.dir, suite.tasks, '');
    const a03 = requestText(
      suite.tasks.find((t) => t.id === 'a03')!,
      '',
    );
    const model = (r: ScriptedRequest) => {
      const reply = reference(r);
      const question = r.messages.find((m) => m.role === 'user')?.content ?? '';
      // The deliberately wrong answer: a03 has 3 distinct products, this model says 7.
      return question.startsWith(a03) && !reply.toolCalls?.length ? { text: 'There are 7 distinct products.' } : reply;
    };
    env = await startE2E({ rules: [], fallback: model }, { config: { recalc: { engine: 'none' } } });
    run = await startBenchmarkRun(env, { dataset: SUITE, agent: 'react', tasks: TASKS });
    final = await runToEnd(env, run);
  }, 300_000);
  afterAll(async () => env?.close());

  it('records the benchmark, edition, pattern and dataset version in run.json', () => {
    const manifest = readJson<Record<string, unknown>>(path.join(run.runDir, 'run.json'));
    expect(manifest).toMatchObject({ benchmark: 'analysis', edition: 'v1', agent: 'react', taskCount: 3 });
    expect(String(manifest.datasetVersion)).toMatch(/^sha256:[0-9a-f]{16}$/);
  });

  it('scores the right answer as passed and the wrong one as failed', () => {
    expect(final.done).toBe(3);
    expect(result('a01')).toMatchObject({
      status: 'scored',
      turnStatus: 'completed',
      pass: true,
      reason: 'number found',
      pattern: 'react',
    });
    expect(result('a03')).toMatchObject({
      status: 'scored',
      turnStatus: 'completed',
      pass: false,
      reason: 'no number within 0.01 of 3 in the answer',
    });
    for (const id of ['a01', 'a03']) {
      expect(result(id).steps).toBeGreaterThanOrEqual(2);
      expect(result(id).toolCalls).toBeGreaterThanOrEqual(1);
      expect(result(id).usage.inputTokens).toBeGreaterThan(0);
    }
  });

  it('reports the fetch request as skipped with its reason when no data server is set, never as passed', () => {
    expect(result('a07')).toMatchObject({ status: 'skipped', pass: false, steps: 0 });
    expect(result('a07').reason).toMatch(
      /a07 downloads items\.json .* no data server is set \(config analysisSuite\.dataUrl\)/,
    );
  });

  it('gives each request its own conversation holding only its files (never the answers)', () => {
    const dir = path.join(run.runDir, result('a01').conversationDir!);
    const workspace = readdirSync(path.join(dir, 'workspace'));
    expect(workspace).toContain('sales.csv');
    expect(workspace.filter((f) => /answers|reference|tasks\.json/.test(f))).toEqual([]);
    expect(existsSync(path.join(dir, 'events.jsonl'))).toBe(true);
    const prompts = env.llm.log.map((r) => JSON.stringify(r.messages)).join('\n');
    expect(prompts).not.toContain('"tolerance"');
    expect(prompts).not.toContain('answers.json');
  });

  it('writes summary.json with success, steps, tokens and cost per level and per pattern', async () => {
    const summary = readJson<AnalysisSummary>(path.join(run.runDir, 'summary.json'));
    expect(summary).toMatchObject({
      benchmark: 'analysis',
      pattern: 'react',
      requests: 3,
      finished: 3,
      passed: 1,
      scored: 2,
      successRate: 0.5,
      failed: [],
    });
    expect(summary.skipped.map((s) => s.taskId)).toEqual(['a07']);
    expect(summary.byLevel).toEqual({ L1: expect.objectContaining({ passed: 1, scored: 2 }) });
    expect(summary.byPattern.react).toMatchObject({ passed: 1, scored: 2 });
    expect(summary.total.steps).toBe((result('a01').steps + result('a03').steps) / 2);
    expect(summary.total.tokens).toBeGreaterThan(0);
    const printed = await analysisSummaryLines(run.runDir);
    expect(printed[0]).toBe('success (2/3 requests scored, pattern react): 1 passed, 50.0%');
    expect(printed).toContainEqual(expect.stringMatching(/^skipped a07: request a07 downloads items\.json/));
  });

  it("writes a report with the success table and each request's outcome", async () => {
    const written = await writeAnalysisReport({ runDir: run.runDir });
    expect(written).toMatchObject({ finishedTasks: 3, pendingTasks: 0 });
    const markdown = readFileSync(written.markdown, 'utf8');
    expect(markdown).toContain('| all | 1 | 2 | 50.0% |');
    expect(markdown).toContain('| a03 | 1 | react | scored | no | no number within 0.01 of 3 in the answer |');
    expect(readFileSync(written.html, 'utf8')).toContain('<td>a07</td><td>2</td><td>react</td><td>skipped</td>');
  });
});

/** With the suite's data server set (config analysisSuite.dataUrl), the fetch request runs: web_fetch, then the code. */
describe('a fetch request of the analysis suite with its data server', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let data: Server;

  beforeAll(async () => {
    data = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      createReadStream(path.join(SUITE, 'files', path.basename(req.url ?? '')))
        .on('error', () => res.end())
        .pipe(res);
    });
    await new Promise<void>((r) => data.listen(0, '127.0.0.1', r));
    const dataUrl = `http://127.0.0.1:${(data.address() as AddressInfo).port}`;
    const suite = await loadAnalysisSuite(SUITE);
    env = await startE2E(
      { rules: [], fallback: referenceAnalyst(suite.dir, suite.tasks, dataUrl) },
      {
        config: {
          recalc: { engine: 'none' },
          analysisSuite: { dataUrl },
          analysis: { fetch: { allowPrivateAddresses: true } },
        },
      },
    );
    run = await startBenchmarkRun(env, { dataset: SUITE, agent: 'react', tasks: ['a07'] });
    await runToEnd(env, run);
  }, 300_000);
  afterAll(async () => {
    await env?.close();
    data?.close();
  });

  it('downloads from the data server and scores the top 5 names', () => {
    const manifest = readJson<{ benchmarkSettings: unknown }>(path.join(run.runDir, 'run.json'));
    expect(manifest.benchmarkSettings).toEqual({ dataUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    const r = readJson<AnalysisRequestResult>(path.join(run.runDir, 'results', 'a07.json'));
    expect(r).toMatchObject({ status: 'scored', pass: true, reason: 'all names in order' });
    expect(r.toolCalls).toBeGreaterThanOrEqual(2);
    expect(readJson<AnalysisSummary>(path.join(run.runDir, 'summary.json'))).toMatchObject({
      passed: 1,
      scored: 1,
      skipped: [],
    });
  });
});

/** A request the conversation refuses (longer than conversation.maxMessageChars): a failed request naming the cause. */
describe('a request the conversation refuses', () => {
  let env: E2EEnv;
  let run: StartedRun;

  beforeAll(async () => {
    const suite = await loadAnalysisSuite(SUITE);
    env = await startE2E(
      { rules: [], fallback: referenceAnalyst(suite.dir, suite.tasks, '') },
      { config: { recalc: { engine: 'none' }, conversation: { maxMessageChars: 20 } } },
    );
    run = await startBenchmarkRun(env, { dataset: SUITE, agent: 'react', tasks: ['a01'] });
    await runToEnd(env, run);
  }, 300_000);
  afterAll(async () => env?.close());

  it('is recorded as failed (dataset) with the reason, at once, and no model call is made', () => {
    const r = readJson<AnalysisRequestResult>(path.join(run.runDir, 'results', 'a01.json'));
    expect(r).toMatchObject({ status: 'failed', pass: false, failure: { class: 'dataset' } });
    expect(r.reason).toMatch(
      /task a01: the conversation refused the request: the message has \d+ characters; the limit is 20/,
    );
    expect(env.llm.log).toEqual([]);
    expect(readJson<AnalysisSummary>(path.join(run.runDir, 'summary.json'))).toMatchObject({
      scored: 0,
      failed: [{ taskId: 'a01' }],
    });
  });
});
