import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerText, answerType, loadQuestions, parseDataJson } from '../../benchmarks/dsbench/dataset';
import { sharedData } from '../helpers/sharedData';

const REAL = process.env.DSBENCH_DATA ?? sharedData('dsbench');

describe('DSBench data.json', () => {
  it('parses the real answer key: 38 competitions, 466 questions, counts by answer type', async () => {
    const questions = await loadQuestions(REAL);
    expect(new Set(questions.map((q) => q.competitionId)).size).toBe(38);
    expect(questions).toHaveLength(466);
    const counts: Record<string, number> = {};
    for (const q of questions) counts[q.answerType] = (counts[q.answerType] ?? 0) + 1;
    expect(counts).toEqual({ choice: 343, integer: 24, numeric: 22, text: 62, object: 15 });
    expect(questions[0]).toMatchObject({
      id: '00000001_question6',
      competitionId: '00000001',
      answer: 'D',
      answerType: 'choice',
    });
    expect(questions.find((q) => q.id === '00000001_question17')?.answer).toBe('1661626');
    expect(questions.filter((q) => q.answer === '')).toHaveLength(0);
  });
  it('stringifies answers: ints as digits, objects as key = value in key order', () => {
    expect(answerText(1661626)).toBe('1661626');
    expect(answerText({ Q: 1, '# of words': 7, 'Xth word': 'ALIBI' })).toBe('Q = 1, # of words = 7, Xth word = ALIBI');
    expect(answerType('$983.01m')).toBe('numeric');
    expect(answerType('2,3,4a')).toBe('text');
    expect(answerType('b')).toBe('choice');
  });
  it('names the line of a malformed record and a question/answer count mismatch', () => {
    expect(() => parseDataJson('{"id":"1","name":"n","url":"u","questions":["q1"],"answers":["A"]}\n[1,')).toThrow(
      /line 2 is not a JSON record/,
    );
    expect(() => parseDataJson('{"id":"7","name":"n","url":"u","questions":["q1","q2"],"answers":["A"]}')).toThrow(
      /competition 7 lists 2 questions but 1 answers/,
    );
    expect(() => parseDataJson('{"id":"7","name":"n","url":"u","questions":["q1"]}')).toThrow(
      /competition 7 is malformed: answers/,
    );
  });
  it('selects questions by id and rejects unknown ones', async () => {
    expect((await loadQuestions(REAL, { ids: ['00000002_question1'] })).map((q) => q.id)).toEqual([
      '00000002_question1',
    ]);
    await expect(loadQuestions(REAL, { ids: ['nope'] })).rejects.toThrow(/unknown question id\(s\): nope/);
    await expect(loadQuestions(path.join(REAL, 'missing'))).rejects.toThrow(/has no readable data.json/);
  });
});
