import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readJsonIfPresent, readRequiredJson, readTextIfPresent } from '../../lib/json';
import { readManifest, type RunManifest } from '../../lib/runStore/manifest';
import { dsbenchQuestionSchema, questionTexts, type DsbenchQuestion } from './dataset';
import { dsbenchQuestionResultSchema } from './resultSchema';
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
  const tasks = await readRequiredJson(path.join(dir, 'tasks.json'), z.array(dsbenchQuestionSchema));
  let lastResultAt: Date | undefined;
  const questions: LoadedQuestion[] = [];
  for (const question of tasks) {
    const file = path.join(dir, 'results', `${question.id}.json`);
    const result = await readJsonIfPresent(file, dsbenchQuestionResultSchema);
    if (result) {
      const at = (await stat(file)).mtime;
      if (!lastResultAt || at > lastResultAt) lastResultAt = at;
    }
    // The dataset may not be on this host (a report made elsewhere): the question is then shown without its text.
    const texts = await questionTexts(manifest.datasetDir, question).catch(() => undefined); // see above
    const prompt = await readTextIfPresent(dsbenchPaths.prompt(path.join(dir, 'tasks', question.id)));
    questions.push({ question, result, input: texts ? `${texts.introduction}\n\n${texts.question}` : '', prompt });
  }
  return { dir, manifest, questions, lastResultAt };
}
