import type { Script, ScriptedRequest } from '../../lib/scriptedLlm';

/** Answers for the DSBench sample, by a phrase of the question (what a scripted "model" replies). */
const ANSWERS: [RegExp, string][] = [
  [/revenue \(units x price\) highest/, 'Revenue is 11400, 13162.5 and 15000, so the answer is C.'],
  [/total of all costs/, 'The total of all costs is 14500.'],
  [/revenue grow from 2014 to 2016/, 'It grew by about 20%.'],
  [/highest scoring word/, 'Q = 1, # of words = 3, Xth word = ALIBI, Highest Word = BIALY, Highest Score = 21'],
  [/scores lowest/, 'RARER'],
  [/net present value/, 'B'],
  [/first column of a table/, 'The answer is A.'],
];

/** The judge: "True" when the predicted answer contains the true one; one question gets a reply that is neither. */
export function dsbenchJudgeReply(request: ScriptedRequest): string {
  const text = request.lastUser;
  if (/scores lowest/.test(text)) return 'I cannot tell.';
  const truth = /True answer: (.*)\n/.exec(text)?.[1] ?? '\u0000';
  const predicted = /Predicted answer: ([\s\S]*)\nReply with only/.exec(text)?.[1] ?? '';
  return predicted.includes(truth) ? 'True' : 'False';
}

export const DSBENCH_SAMPLE_SCRIPT: Script = {
  rules: [
    { name: 'judge', match: { callKey: /\/judge/ }, reply: dsbenchJudgeReply },
    ...ANSWERS.map(([phrase, reply]) => ({
      name: `answer ${phrase.source}`,
      match: { callKey: /\/answer/, lastUser: phrase },
      reply,
    })),
  ],
};
