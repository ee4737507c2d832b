import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { readJsonOr } from '../../lib/runStore/files';
import { readManifest, type RunManifest } from '../../lib/runStore/manifest';
import { questionTexts, type DsbenchQuestion } from './dataset';
import { dsbenchPaths } from './layout';
import type { DsbenchQuestionResult } from './result';

export interface LoadedQuestion {
  question: DsbenchQuestion;
  result?: DsbenchQuestionResult;
  /** Introduction + question text, as the Inspect/vitals port shows a sample's input ('' when the files are gone). */
  input: string;
  prompt?: string;
  systemPrompt?: string;
}

export interface LoadedDsbenchRun {
  dir: string;
  manifest: RunManifest;
  questions: LoadedQuestion[];
  lastResultAt?: Date;
}

/** A DSBench run folder as the report and the Inspect log read it. */
export async function loadDsbenchRun(dir: string): Promise<LoadedDsbenchRun> {
  const manifest = await readManifest(dir);
  const tasks = JSON.parse(await readFile(path.join(dir, 'tasks.json'), 'utf8')) as DsbenchQuestion[];
  let lastResultAt: Date | undefined;
  const questions: LoadedQuestion[] = [];
  for (const question of tasks) {
    const file = path.join(dir, 'results', `${question.id}.json`);
    const result = await readJsonOr<DsbenchQuestionResult | undefined>(file, undefined);
    if (result) {
      const at = (await stat(file)).mtime;
      if (!lastResultAt || at > lastResultAt) lastResultAt = at;
    }
    const texts = await questionTexts(manifest.datasetDir, question).catch(() => undefined);
    const prompt = await readFile(dsbenchPaths.prompt(path.join(dir, 'tasks', question.id)), 'utf8').catch(
      () => undefined,
    );
    questions.push({ question, result, input: texts ? `${texts.introduction}\n\n${texts.question}` : '', prompt });
  }
  return { dir, manifest, questions, lastResultAt };
}
