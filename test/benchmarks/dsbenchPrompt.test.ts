import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { bwrapFactory } from '../sandbox/helpers';
import { competitionFiles, loadQuestions } from '../../benchmarks/dsbench/dataset';
import { workbookText } from '../../benchmarks/dsbench/workbookText';
import { answerRequest } from '../../benchmarks/dsbench/requests';
import { encodingFor, truncateToContext } from '../../benchmarks/dsbench/prompt';
import type { DsbenchSettings } from '../../benchmarks/dsbench/settings';

const ROOT = path.resolve(__dirname, '../..');
const SAMPLE = path.join(ROOT, 'data/dsbench-sample');
const GOLDEN = path.join(ROOT, 'test/fixtures/dsbench');
const PYTHON = path.join(ROOT, '.tools/sandbox-py/bin/python');

const settings: DsbenchSettings = {
  judgeModel: 'j',
  judgeTemplate: 't',
  judgeTemplateVersion: 'v',
  contextLimit: 128_000,
  encoding: 'cl100k_base',
  attachImage: true,
  agentMaxRounds: 3,
};

async function sandboxedText(datasetDir: string, competitionId: string): Promise<string> {
  const factory = await bwrapFactory();
  const root = mkdtempSync(path.join(tmpdir(), 'sb-ds-'));
  chmodSync(root, 0o755);
  const files = await competitionFiles(datasetDir, competitionId);
  return workbookText({
    competitionId,
    dir: files.dir,
    workbooks: files.workbooks,
    workDir: path.join(root, 'work'),
    sandbox: (workDir) => factory.create({ workDir }),
    timeoutMs: 60_000,
  });
}

describe('DSBench prompt construction', () => {
  it('matches the golden prompts built by the original construction (pandas), byte for byte', async () => {
    const questions = await loadQuestions(SAMPLE);
    for (const id of ['00000101', '00000102', '00000103']) {
      const q = questions.find((x) => x.id === `${id}_question1`)!;
      const built = await answerRequest({
        datasetDir: SAMPLE,
        question: q,
        workbookText: await sandboxedText(SAMPLE, id),
        settings,
        model: 'gpt-4o',
      });
      expect(built.prompt).toBe(readFileSync(path.join(GOLDEN, `prompt-${id}_question1.txt`), 'utf8'));
      expect(built.truncated).toBe(false);
    }
  }, 120_000);

  it('sends the original request: system prompt, sampling, the first image as a jpeg data URL', async () => {
    const [q] = await loadQuestions(SAMPLE, { ids: ['00000101_question1'] });
    const withImage = await answerRequest({
      datasetDir: SAMPLE,
      question: q,
      workbookText: '',
      settings,
      model: 'gpt-4o',
    });
    expect(withImage.request).toMatchObject({ temperature: 0, maxTokens: 2256, topP: 1 });
    expect(withImage.request.messages[0].content.endsWith('answer the question.  ')).toBe(true);
    expect(withImage.request.messages[1].images).toHaveLength(1);
    expect(withImage.request.messages[1].images![0].startsWith('data:image/jpeg;base64,iVBORw0KGgo')).toBe(true);
    const noImage = await answerRequest({
      datasetDir: SAMPLE,
      question: q,
      workbookText: '',
      settings: { ...settings, attachImage: false },
      model: 'gpt-3.5-turbo-0125',
    });
    expect(noImage.request.messages[1].images).toBeUndefined();
    expect(noImage.request.messages[0].content.endsWith('answer the question. ')).toBe(true);
  });

  it('uses the model family tokenizer (token ids as tiktoken gives them)', () => {
    expect(encodingFor('gpt-4o-2024-05-13')).toBe('o200k_base');
    expect(encodingFor('gpt-4-turbo-2024-04-09')).toBe('cl100k_base');
    expect(encodingFor('gpt-3.5-turbo-0125')).toBe('cl100k_base');
    expect(getEncoding('cl100k_base').encode('hello world')).toEqual([15339, 1917]);
    expect(getEncoding('o200k_base').encode('hello world')).toEqual([24912, 2375]);
  });

  it('keeps the last (limit − 6000) tokens of a long workbook prompt: the workbook is cut, introduction and question stay', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-dslong-'));
    chmodSync(dir, 0o755);
    mkdirSync(path.join(dir, 'data', '00000900'), { recursive: true });
    const comp = path.join(dir, 'data', '00000900');
    execFileSync(PYTHON, [
      '-c',
      `
from openpyxl import Workbook
wb = Workbook(); ws = wb.active; ws.title = "Ledger"
ws.append(["Row", "Account", "Debit", "Credit"])
for i in range(3000): ws.append([i, f"ACC-{i % 97:03d}", i * 3.25, (i * 7) % 1000])
wb.save(${JSON.stringify(path.join(comp, 'ledger.xlsx'))})`,
    ]);
    writeFileSync(path.join(comp, 'introduction.txt'), 'A long ledger of postings.');
    writeFileSync(
      path.join(comp, 'question1.txt'),
      'Which account has the largest total debit?\nA. ACC-001\nB. ACC-096',
    );
    writeFileSync(
      path.join(dir, 'data.json'),
      JSON.stringify({ id: '00000900', name: 'long', url: 'u', questions: ['question1'], answers: ['B'] }),
    );
    const [q] = await loadQuestions(dir);
    const text = await sandboxedText(dir, '00000900');
    const full = await answerRequest({
      datasetDir: dir,
      question: q,
      workbookText: text,
      settings: { ...settings, contextLimit: 1_000_000 },
      model: 'gpt-4',
    });
    const cut = await answerRequest({
      datasetDir: dir,
      question: q,
      workbookText: text,
      settings: { ...settings, contextLimit: 6000 + 2500 },
      model: 'gpt-4',
    });
    const enc = getEncoding('cl100k_base');
    expect(full.truncated).toBe(false);
    expect(full.promptTokens).toBeGreaterThan(20_000);
    expect(cut.truncated).toBe(true);
    expect(cut.promptTokens).toBe(2500);
    expect(cut.prompt).toBe(enc.decode(enc.encode(full.prompt).slice(-2500)));
    expect(full.prompt.endsWith(cut.prompt)).toBe(true);
    expect(cut.prompt.startsWith('The workbook is detailed')).toBe(false);
    expect(cut.prompt).toContain(
      ' \nThe introduction is detailed as follows. \n A long ledger of postings. \nThe questions are detailed as follows. \n Which account',
    );
    expect(cut.request.messages[1].content).toBe(cut.prompt);
    expect(truncateToContext('short', 6001, 'cl100k_base')).toEqual({ text: 'short', tokens: 1, truncated: false });
    expect(() => truncateToContext('x', 6000, 'cl100k_base')).toThrow(/leaves no room/);
  }, 120_000);
});
