import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChatMessage, ChatRequest } from '../../lib/llm/types';
import { competitionFiles, questionTexts, type DsbenchQuestion } from './dataset';
import { ORIGINAL_JUDGE, renderJudgePrompt } from './judge';
import { ORIGINAL_SAMPLING, ORIGINAL_SYSTEM_PROMPT, originalPrompt, truncateToContext } from './prompt';
import type { DsbenchSettings } from './settings';

export interface AnswerRequest {
  request: ChatRequest;
  prompt: string;
  promptTokens: number;
  truncated: boolean;
}

/** The model-only runner's request: system prompt, the truncated prompt, the first image for vision models, its sampling. */
export async function answerRequest(opts: {
  datasetDir: string;
  question: DsbenchQuestion;
  workbookText: string;
  settings: DsbenchSettings;
  model: string;
}): Promise<AnswerRequest> {
  const { introduction, question } = await questionTexts(opts.datasetDir, opts.question);
  const full = originalPrompt({ workbookText: opts.workbookText, introduction, question });
  const cut = truncateToContext(full, opts.settings.contextLimit, opts.settings.encoding);
  const image = opts.settings.attachImage
    ? await imageDataUrl(opts.datasetDir, opts.question.competitionId)
    : undefined;
  return {
    request: {
      model: opts.model,
      ...ORIGINAL_SAMPLING,
      messages: [
        // The original's vision branch has a second trailing space in the system prompt.
        { role: 'system', content: image ? `${ORIGINAL_SYSTEM_PROMPT} ` : ORIGINAL_SYSTEM_PROMPT },
        { role: 'user', content: cut.text, ...(image ? { images: [image] } : {}) },
      ],
    },
    prompt: cut.text,
    promptTokens: cut.tokens,
    truncated: cut.truncated,
  };
}

/** The original sends every image as `data:image/jpeg;base64,…`, png included. */
async function imageDataUrl(datasetDir: string, competitionId: string): Promise<string | undefined> {
  const files = await competitionFiles(datasetDir, competitionId);
  if (!files.image) return undefined;
  return `data:image/jpeg;base64,${(await readFile(path.join(files.dir, files.image))).toString('base64')}`;
}

/** One judgment: a single user message from the template, no system prompt, the original judge's sampling. */
export async function judgeRequest(opts: {
  datasetDir: string;
  question: DsbenchQuestion;
  predicted: string;
  template: string;
  judgeModel: string;
}): Promise<ChatRequest> {
  const { question } = await questionTexts(opts.datasetDir, opts.question);
  const content = renderJudgePrompt(opts.template, {
    question,
    answer: opts.question.answer,
    predicted: opts.predicted,
  });
  return {
    model: opts.judgeModel,
    temperature: ORIGINAL_JUDGE.temperature,
    maxTokens: ORIGINAL_JUDGE.maxTokens,
    messages: [{ role: 'user', content }],
  };
}

/** Agent setting: the conversation so far (user/assistant turns) behind the original system prompt, with its sampling. */
export function agentTurnRequest(model: string, messages: ChatMessage[]): ChatRequest {
  return { model, ...ORIGINAL_SAMPLING, messages: [{ role: 'system', content: ORIGINAL_SYSTEM_PROMPT }, ...messages] };
}
