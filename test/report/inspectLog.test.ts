import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { access, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { evalLogFileName, parseIsoAsUtc } from '../../benchmarks/report/inspectIds';
import { writeReport } from '../../benchmarks/spreadsheetbench/report/writeReport';
import { claimPort } from '../helpers/portClaim';
import { buildRunFolder, makeTempDir, standardRun } from './fixtures';

const run = promisify(execFile);
const INSPECT_PYTHON = path.resolve('.tools/inspect-venv/bin/python');
const OPENAPI = path.resolve('.tools/inspect-venv/lib/python3.11/site-packages/inspect_ai/_view/inspect-openapi.json');
/** inspect_ai/log/_file.py `log_file_pattern`: what `inspect view` lists among .json files. */
const INSPECT_LISTING = /^\d{4}-\d{2}-\d{2}T\d{2}[:-]\d{2}[:-]\d{2}.*$/;

/** Reads the log with the real inspect_ai: full read, header-only (streaming, checks key order), pydantic, listing. */
const VALIDATE = `
import json, sys
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
path, logs_dir = sys.argv[1], sys.argv[2]
log = read_eval_log(path)
header = read_eval_log(path, header_only=True)
with open(path) as f:
    EvalLog.model_validate(json.load(f))
print(json.dumps({
  "status": log.status, "version": log.version, "task": log.eval.task, "model": log.eval.model,
  "header_samples": header.samples, "header_total": header.results.total_samples,
  "ids": [s.id for s in log.samples], "epochs": [s.epoch for s in log.samples],
  "targets": [s.target for s in log.samples],
  "values": {s.id: s.scores["spreadsheetbench"].value for s in log.samples},
  "hard": {s.id: s.scores["spreadsheetbench"].metadata["hard"] for s in log.samples},
  "roles": [m.role for m in log.samples[0].messages],
  "completion": log.samples[0].output.completion,
  "metrics": {k: m.value for k, m in log.results.scores[0].metrics.items()},
  "usage": log.stats.model_usage[log.eval.model].total_tokens,
  "listed": [l.name.rsplit("/", 1)[-1] for l in list_eval_logs(logs_dir)],
}))
`;

describe('Inspect eval log', () => {
  let logFile: string;
  let logsDir: string;
  let log: Record<string, unknown>;

  beforeAll(async () => {
    const runDir = await buildRunFolder(await makeTempDir(), standardRun());
    logFile = (await writeReport({ runDir })).inspectLog;
    logsDir = path.dirname(logFile);
    log = JSON.parse(await readFile(logFile, 'utf8')) as Record<string, unknown>;
  });

  it('is named so that inspect view lists it, and lives in <run>/logs', () => {
    const name = path.basename(logFile);
    expect(name).toMatch(/^2025-07-18T14-55-41\+00-00_spreadsheetbench_[2-9A-HJ-NP-Za-km-z]{22}\.json$/);
    expect(INSPECT_LISTING.test(name)).toBe(true);
    expect(INSPECT_LISTING.test('results.json')).toBe(false);
    expect(path.basename(logsDir)).toBe('logs');
  });

  it('keeps Inspect key order with samples last and writes the full shape', async () => {
    expect(Object.keys(log)).toEqual([
      'version',
      'status',
      'eval',
      'plan',
      'results',
      'stats',
      'invalidated',
      'tags',
      'metadata',
      'samples',
    ]);
    const text = await readFile(logFile, 'utf8');
    expect(text).toContain('\n  "samples"');
    expect(text).not.toMatch(/NaN|Infinity|sk-test-not-a-key/);
    const sample = (log.samples as Record<string, unknown>[])[0];
    for (const key of [
      'id',
      'epoch',
      'input',
      'target',
      'messages',
      'output',
      'scores',
      'metadata',
      'store',
      'events',
      'model_usage',
      'role_usage',
      'attachments',
    ]) {
      expect(sample).toHaveProperty(key);
    }
    expect((sample.scores as Record<string, { history: unknown[] }>).spreadsheetbench.history).toEqual([]);
  });

  it('is read and validated by the real inspect_ai (pydantic, header-only reader, log listing)', async () => {
    await access(INSPECT_PYTHON).catch(() => {
      throw new Error(`${INSPECT_PYTHON} missing: run scripts/setup.d/report.sh (via scripts/setup.sh)`);
    });
    await writeFile(path.join(logsDir, 'results.json'), '{}'); // a non-log the listing must skip
    const { stdout } = await run(INSPECT_PYTHON, ['-c', VALIDATE, logFile, logsDir], { timeout: 50_000 });
    const seen = JSON.parse(stdout) as Record<string, any>;
    expect(seen.status).toBe('started'); // task 105 is pending
    expect(seen.version).toBe(2);
    expect(seen.model).toBe('openai/gpt-4o-mini');
    expect(seen.header_samples).toBeNull();
    expect(seen.header_total).toBe(5);
    expect(seen.ids).toEqual(['101', '102', '13-1', '104']);
    expect(seen.epochs).toEqual([1, 1, 1, 1]);
    expect(seen.targets[0]).toBe("'Sheet1'!C1:C6");
    expect(seen.values['102']).toBeCloseTo(2 / 3, 10);
    expect(seen.values['13-1']).toBe(0);
    expect(seen.hard).toEqual({ '101': 1, '102': 0, '13-1': 0, '104': 1 });
    expect(seen.roles).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    expect(seen.completion).toBe('Done with task 101.');
    // soft [1, 2/3, 0, 1]: mean 2/3; sample variance (1/9 + 0 + 4/9 + 1/9)/3 = 2/9; stderr sqrt(2/9 / 4) = 0.2357
    expect(seen.metrics.accuracy).toBeCloseTo(2 / 3, 10);
    expect(seen.metrics.hard_accuracy).toBe(0.5);
    expect(seen.metrics.stderr).toBeCloseTo(Math.sqrt(2 / 9 / 4), 10);
    expect(seen.usage).toBe(1100);
    expect(seen.listed).toEqual([path.basename(logFile)]);
  });

  it('passes the JSON schema of inspect_ai (inspect-openapi.json), which rejects a broken log', async () => {
    const spec = JSON.parse(await readFile(OPENAPI, 'utf8')) as { components: unknown };
    const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
    ajv.addSchema({ $id: 'inspect', components: spec.components });
    const validate = ajv.compile({ $ref: 'inspect#/components/schemas/EvalLog' });
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const broken = structuredClone(log) as { results: { scores: { metrics: unknown }[] } };
    broken.results.scores[0].metrics = [{ name: 'accuracy', value: 0.5, params: {} }];
    expect(validate(broken)).toBe(false);
  });

  it('is listed and served by `inspect view` (its HTTP API on 127.0.0.1)', async () => {
    const claim = await claimPort();
    const port = claim.port;
    const view = spawn(
      INSPECT_PYTHON,
      ['-m', 'inspect_ai', 'view', '--log-dir', logsDir, '--host', '127.0.0.1', '--port', String(port)],
      { stdio: 'ignore' },
    );
    try {
      const base = `http://127.0.0.1:${port}/api`;
      const listing = (await pollJson(`${base}/log-files`, 40_000)) as { files: { name: string; task: string }[] };
      const ours = listing.files.filter((f) => f.name.endsWith(path.basename(logFile)));
      expect(ours).toHaveLength(1);
      expect(ours[0].task).toBe('spreadsheetbench');
      const res = await fetch(`${base}/logs/${encodeURIComponent(logFile)}`);
      expect(res.status).toBe(200);
      const served = (await res.json()) as {
        samples: unknown[];
        results: { scores: { metrics: { accuracy: { value: number } } }[] };
      };
      expect(served.samples).toHaveLength(4);
      expect(served.results.scores[0].metrics.accuracy.value).toBeCloseTo(2 / 3, 10);
    } finally {
      await stopProcess(view);
      claim.release();
    }
  });

  it('rewrites the same file for the same run (stable ids)', async () => {
    const runDir = path.dirname(logsDir);
    const again = (await writeReport({ runDir })).inspectLog;
    expect(again).toBe(logFile);
    expect((await readdir(logsDir)).filter((n) => INSPECT_LISTING.test(n))).toHaveLength(1);
  });
});

/** SIGTERM, then SIGKILL if the server has not exited within 5 s; resolves once it has exited. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function pollJson(url: string, timeoutMs: number): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return await res.json();
    } catch {
      // server not up yet
    }
    if (Date.now() > deadline) throw new Error(`inspect view did not answer ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('Inspect eval log of a finished run', () => {
  it('has status success, a completion time and no pending samples', async () => {
    const spec = standardRun('run-done');
    spec.tasks = spec.tasks.filter((t) => t.cases);
    const runDir = await buildRunFolder(await makeTempDir(), spec);
    const log = JSON.parse(await readFile((await writeReport({ runDir })).inspectLog, 'utf8'));
    expect(log.status).toBe('success');
    expect(log.stats.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(log.results.total_samples).toBe(4);
    expect(log.results.completed_samples).toBe(4);
  });
});

describe('Inspect log names', () => {
  it('takes a creation time without offset as UTC and names the file from it', () => {
    expect(evalLogFileName(parseIsoAsUtc('2025-01-02T03:04:05'), 'spreadsheetbench', 'abc')).toBe(
      '2025-01-02T03-04-05+00-00_spreadsheetbench_abc.json',
    );
    expect(evalLogFileName(parseIsoAsUtc('2025-01-02T03:04:05+02:00'), 'spreadsheetbench', 'abc')).toBe(
      '2025-01-02T01-04-05+00-00_spreadsheetbench_abc.json',
    );
  });
});
