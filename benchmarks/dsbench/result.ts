import type { Spend, TokenUsage } from '../../lib/llm/usage';
import type { TaskFailureClass } from '../../contracts/taskResult';
import type { AnswerType, DsbenchQuestion } from './dataset';
import { exactLetterMatch } from './judge';
import type { Verdict } from './judge';

/** The answering model's reply to one question (tasks/<id>/answer.json). */
export interface DsbenchAnswer {
  taskId: string;
  model: string;
  response: string;
  promptTokens: number;
  truncated: boolean;
  usage: TokenUsage;
  costUsd: number;
  llmCalls: number;
  wallMs: number;
}

/** One judgment of an answer (tasks/<id>/judgment.json); a rejudge replaces it. */
export interface DsbenchJudgment {
  taskId: string;
  judgeModel: string;
  reply: string;
  verdict: Verdict;
  usage: TokenUsage;
  costUsd: number;
  /** Counted once per call key: a rejudge is another call. */
  callKey: string;
}

/** results/<id>.json for a DSBench question. */
export interface DsbenchQuestionResult {
  taskId: string;
  competitionId: string;
  question: string;
  answerType: AnswerType;
  target: string;
  predicted?: string;
  verdict?: Verdict;
  judgeReply?: string;
  judgeModel?: string;
  /** Multiple-choice only: the prediction names exactly the target letter. */
  exactMatch?: boolean;
  truncated?: boolean;
  /** 1 when judged correct, else 0 (what the run adds up as its pass rate). */
  soft: number;
  hard: number;
  failure?: { class: TaskFailureClass; message: string };
  usage: TokenUsage;
  costUsd: number;
  llmCalls: number;
  wallMs: number;
}

/** A question's result from its recorded answer and judgment (either may be missing when the question failed first). */
export function questionResult(opts: {
  question: DsbenchQuestion;
  answer?: DsbenchAnswer;
  judgment?: DsbenchJudgment;
  failure?: DsbenchQuestionResult['failure'];
  spend: Spend;
  wallMs: number;
}): DsbenchQuestionResult {
  const { question: q, answer, judgment } = opts;
  const correct = judgment?.verdict === 'correct' ? 1 : 0;
  return {
    taskId: q.id,
    competitionId: q.competitionId,
    question: q.question,
    answerType: q.answerType,
    target: q.answer,
    predicted: answer?.response,
    verdict: judgment?.verdict,
    judgeReply: judgment?.reply,
    judgeModel: judgment?.judgeModel,
    exactMatch: q.answerType === 'choice' && answer ? exactLetterMatch(q.answer, answer.response) : undefined,
    truncated: answer?.truncated,
    soft: correct,
    hard: correct,
    failure: opts.failure,
    ...opts.spend,
    wallMs: opts.wallMs,
  };
}
