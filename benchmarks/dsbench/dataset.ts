import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DatasetError, selectTasks } from '../../lib/runStore/taskRecord';
import { contentVersion } from '../datasetVersion';
import type { SelectOptions } from '../../lib/runStore/taskRecord';

/** One competition as it stands in DSBench's data.json (JSON Lines: one record a line). */
export const competitionSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  url: z.string(),
  txt: z.string().optional(),
  questions: z.array(z.string().min(1)),
  answers: z.array(z.union([z.string(), z.number(), z.record(z.string(), z.unknown())])),
  year: z.number().int().optional(),
});
export type Competition = z.infer<typeof competitionSchema>;

export type AnswerType = 'choice' | 'integer' | 'numeric' | 'text' | 'object';

/** One question = one task of a run (tasks.json), with its answer as the judge sees it. */
export interface DsbenchQuestion {
  /** `<competition>_<questionN>`, as the Inspect/vitals port names samples. */
  id: string;
  competitionId: string;
  competitionName: string;
  url: string;
  year?: number;
  /** File stem of the question (`question6` → `data/<competition>/question6.txt`). */
  question: string;
  answer: string;
  answerType: AnswerType;
}

/** A question as a run's tasks.json records it (read back by the run's activities, `show`, a rejudge). */
export const dsbenchQuestionSchema = z.object({
  id: z.string(),
  competitionId: z.string(),
  competitionName: z.string(),
  url: z.string(),
  year: z.number().optional(),
  question: z.string(),
  answer: z.string(),
  answerType: z.enum(['choice', 'integer', 'numeric', 'text', 'object']),
}) satisfies z.ZodType<DsbenchQuestion>;

export function questionId(competitionId: string, question: string): string {
  return `${competitionId}_${question}`;
}

/** data.json as the original reads it: one record a line (blank lines skipped), each a JSON object. */
export function parseDataJson(text: string, file = 'data.json'): Competition[] {
  const competitions: Competition[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      throw new DatasetError(
        `${file} line ${i + 1} is not a JSON record (data.json is JSON Lines): ${(err as Error).message}`,
      );
    }
    const parsed = competitionSchema.safeParse(raw);
    const id = (raw as { id?: unknown })?.id;
    const where = typeof id === 'string' ? `competition ${id}` : `line ${i + 1}`;
    if (!parsed.success)
      throw new DatasetError(
        `${file}: ${where} is malformed: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
      );
    if (parsed.data.questions.length !== parsed.data.answers.length) {
      throw new DatasetError(
        `${file}: ${where} lists ${parsed.data.questions.length} questions but ${parsed.data.answers.length} answers`,
      );
    }
    competitions.push(parsed.data);
  });
  return competitions;
}

/** Answers become strings: ints as digits, objects as `key = value, …` in key order (Inspect targets are strings). */
export function answerText(answer: Competition['answers'][number]): string {
  if (typeof answer === 'string') return answer;
  if (typeof answer === 'number') return String(answer);
  return Object.entries(answer)
    .map(([k, v]) => `${k} = ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

const NUMERIC_ANSWER = /^\$?-?[\d,]*\.?\d+\s?(%|k|m)?$/;

export function answerType(answer: Competition['answers'][number]): AnswerType {
  if (typeof answer === 'number') return 'integer';
  if (typeof answer === 'object') return 'object';
  if (/^[A-Ia-i]$/.test(answer)) return 'choice';
  return NUMERIC_ANSWER.test(answer) ? 'numeric' : 'text';
}

export function questionsOf(competitions: Competition[]): DsbenchQuestion[] {
  return competitions.flatMap((c) =>
    c.questions.map((q, i) => ({
      id: questionId(c.id, q),
      competitionId: c.id,
      competitionName: c.name,
      url: c.url,
      year: c.year,
      question: q,
      answer: answerText(c.answers[i]),
      answerType: answerType(c.answers[i]),
    })),
  );
}

/** data.json read once: every question, and the content version from the same bytes. */
export async function readQuestions(datasetDir: string): Promise<{ questions: DsbenchQuestion[]; version: string }> {
  const file = path.join(datasetDir, 'data.json');
  const bytes = await readFile(file).catch(() => {
    throw new DatasetError(`dataset folder ${datasetDir} has no readable data.json`);
  });
  return { questions: questionsOf(parseDataJson(bytes.toString('utf8'), file)), version: contentVersion(bytes) };
}

export async function loadQuestions(datasetDir: string, select: SelectOptions = {}): Promise<DsbenchQuestion[]> {
  return selectQuestions((await readQuestions(datasetDir)).questions, select);
}

export function selectQuestions(questions: DsbenchQuestion[], select: SelectOptions): DsbenchQuestion[] {
  return selectTasks(questions, select, (missing) => `unknown question id(s): ${missing.join(', ')}`);
}

/** A competition's inputs in the original layout: `data/<id>/`. */
export interface CompetitionFiles {
  dir: string;
  /** `*.xlsx|*.xlsb|*.xlsm` without "answer" in the name (any case), sorted by name. */
  workbooks: string[];
  /** The first `*.jpg|*.png` (by name), if any. */
  image?: string;
}

export function competitionDir(datasetDir: string, competitionId: string): string {
  return path.join(datasetDir, 'data', competitionId);
}

export async function competitionFiles(datasetDir: string, competitionId: string): Promise<CompetitionFiles> {
  const dir = competitionDir(datasetDir, competitionId);
  const names = (
    await readdir(dir).catch(() => {
      throw new DatasetError(`competition ${competitionId}: folder data/${competitionId} is missing`);
    })
  ).sort();
  const lower = (n: string) => n.toLowerCase();
  return {
    dir,
    workbooks: names.filter((n) => /(xlsx|xlsb|xlsm)$/.test(lower(n)) && !lower(n).includes('answer')),
    image: names.find((n) => /\.(jpg|png)$/.test(lower(n))),
  };
}

/** The question's text and its competition's introduction; a missing file is this question's dataset error. */
export async function questionTexts(
  datasetDir: string,
  q: DsbenchQuestion,
): Promise<{ introduction: string; question: string }> {
  const dir = competitionDir(datasetDir, q.competitionId);
  const read = (name: string, what: string) =>
    readFile(path.join(dir, name), 'utf8').catch(() => {
      throw new DatasetError(`data/${q.competitionId}/${name} is missing (${what})`, q.id);
    });
  return {
    introduction: await read('introduction.txt', "the competition's introduction"),
    question: await read(`${q.question}.txt`, 'listed in data.json'),
  };
}
