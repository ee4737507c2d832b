import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

/** The project's judge template, with the original's slots: {question}, {answer} (the true one), {predicted}. */
export const DEFAULT_JUDGE_TEMPLATE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'judge-template.txt');
/** The original judge (compute_answer.py): GPT-4o, temperature 0, 256 tokens, one user message, no system prompt. */
export const ORIGINAL_JUDGE = { model: 'gpt-4o-2024-05-13', temperature: 0, maxTokens: 256 } as const;

export type Verdict = 'correct' | 'incorrect' | 'unparseable';

const SLOTS = ['{question}', '{answer}', '{predicted}'] as const;

export interface JudgeTemplate {
  text: string;
  /** Recorded in run.json: another template is another experiment. */
  version: string;
}

export async function loadJudgeTemplate(file = DEFAULT_JUDGE_TEMPLATE): Promise<JudgeTemplate> {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new Error(`judge template ${file} cannot be read`);
  });
  const missing = SLOTS.filter((s) => !text.includes(s));
  if (missing.length) throw new Error(`judge template ${file} lacks the slot(s) ${missing.join(', ')}`);
  return { text, version: `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}` };
}

/** Fills the slots in one pass, so a question that happens to contain `{answer}` is left as it is. */
export function renderJudgePrompt(
  template: string,
  slots: { question: string; answer: string; predicted: string },
): string {
  return template.replace(/\{(question|answer|predicted)\}/g, (_, name: keyof typeof slots) => slots[name]);
}

/**
 * The original counts a reply as correct when it contains "true" (any case). A reply with neither "true" nor "false"
 * is recorded as unparseable (the original would have counted it wrong) so it can be re-judged.
 */
export function parseVerdict(reply: string): Verdict {
  const lower = reply.toLowerCase();
  if (lower.includes('true')) return 'correct';
  return lower.includes('false') ? 'incorrect' : 'unparseable';
}

/** For multiple-choice targets: does the prediction name exactly the target letter? (a check on the judge) */
export function exactLetterMatch(target: string, predicted: string): boolean {
  const letters = [...predicted.matchAll(/(?:^|[^A-Za-z])([A-Ia-i])(?=$|[^A-Za-z])/g)].map((m) => m[1].toUpperCase());
  const explicit = /answer(?: is)?[:\s]*\(?([A-Ia-i])\)?(?![A-Za-z])/i.exec(predicted)?.[1]?.toUpperCase();
  const chosen = explicit ?? (new Set(letters).size === 1 ? letters[0] : undefined);
  return chosen === target.toUpperCase();
}
