import {
  SECOND_PROGRAM_AGENT,
  SECOND_PROGRAM_FIX,
  SECOND_PROGRAM_FIXES,
  SECOND_PROGRAM_PROMPT,
  secondProgramRequest,
} from '../../../analysis/conversation/crossCheckPrompts';
import { bookkeeping } from '../activities';
import { actUntilAnswer } from './actLoop';
import { TurnStop, type Agent, type AnswerRef, type Turn } from './turn';

/**
 * The catcher of computed-but-wrong answers: an answer stating numbers is computed again by a second program, written
 * independently (its own transcript and prompt, the question and the data preview only, never the first program or its
 * answer), and the two results are compared (`conversationCrossCheck`). They agree: the answer stands. They disagree:
 * when the operation check trusts one of them (the other counted rows for a total), that one's result is the answer;
 * otherwise the model is asked once, with the second program's code and output, to check with code which is right, and
 * the revised answer is compared again; still disagreeing, it is shown with a note. Agreeing numbers that leave out
 * values the question asks for (one total of four asked per region) go back once the same way, with what the second
 * program printed; still incomplete, the answer is shown with those values under it. The turn's limits cut the
 * cross-check short without failing the turn (the answer is kept, unchecked or noted).
 */
export async function crossCheck(turn: Turn, answer: AnswerRef): Promise<AnswerRef> {
  if (!(await bookkeeping.conversationCrossCheckNeeded({ ...turn.ref, answer }))) return answer;
  try {
    await secondProgram(turn);
    const first = await bookkeeping.conversationCrossCheck({ ...turn.ref, answer, round: 1 });
    if (!first.revision) return answer;
    const revised = await actUntilAnswer(turn.continueAgent(answer), {
      instruction: first.revision,
      tools: 'required',
    });
    await bookkeeping.conversationCrossCheck({ ...turn.ref, answer: revised, round: 2 });
    return { ...revised, prefix: answer.prefix };
  } catch (err) {
    if (err instanceof TurnStop) return answer;
    throw err;
  }
}

/**
 * The second program: a step that must run code, then more (bounded) until a Python run succeeded: a fix when its code
 * failed, or the program after a step that only fetched or read a file. No answer step.
 */
async function secondProgram(turn: Turn): Promise<void> {
  const agent = turn.agent(SECOND_PROGRAM_AGENT);
  const seed = { system: SECOND_PROGRAM_PROMPT, request: secondProgramRequest(turn.text) };
  let ran = await runStep(agent, { tools: 'required', seed });
  for (let more = 0; more < SECOND_PROGRAM_FIXES && !ran.succeeded; more++)
    ran = await runStep(agent, { tools: 'required', ...(ran.failed ? { instruction: SECOND_PROGRAM_FIX } : {}) });
}

/** One step of the second program and its tool calls: whether a Python run succeeded, whether a call failed. */
async function runStep(
  agent: Agent,
  opts: Parameters<Agent['step']>[1],
): Promise<{ succeeded: boolean; failed: boolean }> {
  const reply = await agent.step('act', opts);
  const results = await agent.runTools(reply);
  const failed = results.some((r) => r.codeFailed || !r.ok);
  const succeeded = reply.toolCalls.some(
    (c, i) => c.tool === 'python_execute' && results[i]?.ok && !results[i]?.codeFailed,
  );
  return { succeeded, failed };
}
