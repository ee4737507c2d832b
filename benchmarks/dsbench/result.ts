import type { TokenUsage } from '../../llm/types';
import type { TaskFailureClass } from '../../run/taskResult';
import type { AnswerType } from './dataset';
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
