import { getEncoding, type Tiktoken, type TiktokenEncoding } from 'js-tiktoken';

/** DSBench's model-only runner (eval_GPT.ipynb): its system prompt (the double space is the original's). */
export const ORIGINAL_SYSTEM_PROMPT =
  'You are a data analyst. I will give  you a background introduction and data analysis question. You must answer the question. ';
/** The runner's request settings. */
export const ORIGINAL_SAMPLING = { temperature: 0, maxTokens: 2256, topP: 1 } as const;
/** Tokens kept free for the reply: the prompt keeps its last (context limit − this) tokens. */
export const TOKENS_FOR_GENERATION = 6000;
/** The code-interpreter runner's extra instruction. */
export const GUESS_SENTENCE =
  "If the question is a multi-choice question and you are unsure which one is correct, you must guess an option.  Please don't ask me any questions and give me the answer in the response.";

/** One workbook's text as the original builds it from pandas (`Sheet name: …\n<to_string>\n\n` per sheet). */
export function excelFileText(fileName: string, sheetsText: string): string {
  return `The excel file ${fileName} is: ${sheetsText}`;
}

/** The user prompt before truncation: workbook text (if any), introduction, question, exactly as the original joins them. */
export function originalPrompt(parts: { workbookText: string; introduction: string; question: string }): string {
  let text = '';
  if (parts.workbookText) text += `The workbook is detailed as follows. ${parts.workbookText} \n`;
  text += `The introduction is detailed as follows. \n ${parts.introduction} \n`;
  return `${text}The questions are detailed as follows. \n ${parts.question}`;
}

const encodings = new Map<TiktokenEncoding, Tiktoken>();

function encodingNamed(name: TiktokenEncoding): Tiktoken {
  let enc = encodings.get(name);
  if (!enc) encodings.set(name, (enc = getEncoding(name)));
  return enc;
}

/** The model's own tokenizer: o200k for the GPT-4o / 4.1 / 5 / o-series families, cl100k for GPT-4 / 3.5 and others. */
export type ModelEncoding = Extract<TiktokenEncoding, 'cl100k_base' | 'o200k_base'>;

export function encodingFor(model: string, override?: ModelEncoding): ModelEncoding {
  if (override) return override;
  const name = model.toLowerCase().replace(/^openai\//, '');
  return /^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o)/.test(name) ? 'o200k_base' : 'cl100k_base';
}

/** `encode(prompt)[6000 - LIMIT:]`: keeps the last (limit − 6000) tokens, so the workbook text is cut first. */
export function truncateToContext(
  prompt: string,
  contextLimit: number,
  encoding: TiktokenEncoding,
): { text: string; tokens: number; truncated: boolean } {
  const enc = encodingNamed(encoding);
  const tokens = enc.encode(prompt, [], []);
  const keep = contextLimit - TOKENS_FOR_GENERATION;
  if (keep <= 0)
    throw new Error(
      `context limit ${contextLimit} leaves no room for a prompt (${TOKENS_FOR_GENERATION} tokens are kept for the reply)`,
    );
  if (tokens.length <= keep) return { text: prompt, tokens: tokens.length, truncated: false };
  return { text: enc.decode(tokens.slice(tokens.length - keep)), tokens: keep, truncated: true };
}
