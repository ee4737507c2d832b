import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DSBENCH_SAMPLE_SCRIPT } from '../helpers/dsbenchScript';

const SAMPLE = path.resolve(__dirname, '../../data/dsbench-sample');

/** A copy of the sample with broken inputs: each bad question fails alone, naming itself and the cause; the rest finish. */
function brokenDataset(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-dsbad-'));
  cpSync(SAMPLE, dir, { recursive: true });
  rmSync(path.join(dir, 'data/00000101/question3.txt'));
  rmSync(path.join(dir, 'data/00000103/introduction.txt'));
  const locked = path.join(dir, 'data/00000104');
  mkdirSync(locked);
  // An encrypted workbook is an OLE compound file, not a zip.
  writeFileSync(
    path.join(locked, 'locked.xlsx'),
    Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(2048)]),
  );
  writeFileSync(path.join(locked, 'introduction.txt'), 'A password-protected model.');
  writeFileSync(path.join(locked, 'question1.txt'), 'What is the total of all costs?');
  appendFileSync(
    path.join(dir, 'data.json'),
    `\n${JSON.stringify({ id: '00000104', name: 'locked', url: 'u', questions: ['question1'], answers: [1] })}`,
  );
  const corrupt = path.join(dir, 'data/00000105');
  mkdirSync(corrupt);
  writeFileSync(path.join(corrupt, 'broken.xlsx'), 'this is not a workbook');
  writeFileSync(path.join(corrupt, 'introduction.txt'), 'A corrupt model.');
  writeFileSync(path.join(corrupt, 'question1.txt'), 'What is the total of all costs?');
  appendFileSync(
    path.join(dir, 'data.json'),
    `\n${JSON.stringify({ id: '00000105', name: 'corrupt', url: 'u', questions: ['question1'], answers: ['A'] })}`,
  );
  return dir;
}

describe('DSBench bad input', () => {
  let env: E2EEnv;
  let run: StartedRun;

  beforeAll(async () => {
    env = await startE2E(DSBENCH_SAMPLE_SCRIPT, { config: { recalc: { engine: 'none' } } });
    run = await startBenchmarkRun(env, { dataset: brokenDataset(), agent: 'model-only' });
    await runToEnd(env, run);
  }, 240_000);
  afterAll(async () => env?.close());

  const result = (id: string) => JSON.parse(readFileSync(path.join(run.runDir, 'results', `${id}.json`), 'utf8'));

  it('fails a question whose file is missing, naming it and the cause', () => {
    expect(result('00000101_question3').failure).toEqual({
      class: 'dataset',
      message: 'task 00000101_question3: data/00000101/question3.txt is missing (listed in data.json)',
    });
  });
  it('fails the questions of a competition without introduction.txt', () => {
    for (const id of ['00000103_question1', '00000103_question2']) {
      expect(result(id).failure.message).toBe(
        `task ${id}: data/00000103/introduction.txt is missing (the competition's introduction)`,
      );
    }
  });
  it('fails the questions of a competition whose workbook is password-protected', () => {
    expect(result('00000104_question1').failure.class).toBe('dataset');
    expect(result('00000104_question1').failure.message).toBe(
      'competition 00000104: workbook locked.xlsx cannot be read: it is password-protected (an encrypted OLE container)',
    );
  });
  it("fails the questions of a competition whose workbook is corrupt, with pandas' reason", () => {
    expect(result('00000105_question1').failure.message).toMatch(
      /^competition 00000105: workbook broken.xlsx cannot be read \(unreadable, encrypted or unsupported\): \w+/,
    );
  });
  it('finishes the other questions and writes the summary; nothing is asked for a failed question', () => {
    expect(result('00000101_question1').verdict).toBe('correct');
    expect(result('00000102_question1').verdict).toBe('correct');
    const summary = JSON.parse(readFileSync(path.join(run.runDir, 'summary.json'), 'utf8'));
    expect(summary.failed).toBe(5);
    expect(summary.failureClasses).toEqual({ dataset: 5 });
    expect(summary.dsbench.questions).toBe(9);
    const asked = env.llm.log.filter((e) => e.answered).map((e) => e.callKey!.split('/')[1]);
    expect(
      asked.filter((id) =>
        [
          '00000101_question3',
          '00000103_question1',
          '00000103_question2',
          '00000104_question1',
          '00000105_question1',
        ].includes(id),
      ),
    ).toEqual([]);
  });
});
