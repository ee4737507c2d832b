import { extractPythonCode } from '../../../benchmarks/codeAgent/codeExtraction';
import type { OfficialPromptKind } from '../../../benchmarks/spreadsheetbench/agents/prompts/spreadsheetbench';
import type { Agent } from './agent';

/**
 * The official multi-round settings: the prompt, then up to maxTurns rounds of (model reply → execute its code on
 * test case 1 → feed the result back). Code is the first python block, else the whole reply (official). All rounds of
 * the conversation share one kernel, so exploration code can set up state the solution uses. Stop rule made correct:
 * the loop ends when this round's execution wrote the test-case-1 output (a stale file never counts).
 */
export function multiRoundAgent(prompt: OfficialPromptKind): Agent {
  return async (ctx) => {
    let solution = '';
    let lastFeedback: string | undefined;
    let produced = false;
    let lastProblem: string | undefined;
    for (let round = 0; round < ctx.settings.maxTurns && !produced; round++) {
      const label = `round-${round + 1}`;
      await ctx.inStage(label, async (tools) => {
        const reply = await tools.callModel(
          'main',
          2 * round,
          round === 0 ? { officialPrompt: prompt } : { text: lastFeedback ?? '' },
        );
        solution = extractPythonCode(reply.text);
        const problem = replyProblem(reply.text, reply.finishReason);
        lastProblem = problem;
        if (problem) tools.note(problem);
        const result = await tools.executeInSession('main', round, solution, label);
        lastFeedback = result.feedback;
        produced = result.outputProduced;
        if (!produced && !problem) tools.note(result.error ? 'execution failed' : 'no output yet');
      });
    }
    return {
      solution,
      conversation: 'main',
      // The test-case-1 output comes from the loop itself (official); test cases 2..N replay the last code.
      executedTestCases: produced ? [1] : [],
      lastFeedback,
      // A model that never wrote the output gets its verdict from scoring; only an unusable last reply is a problem.
      problem: produced ? undefined : lastProblem,
    };
  };
}

/** What the stage records about a reply the official harness would still execute as-is. */
function replyProblem(text: string, finishReason: string): string | undefined {
  if (finishReason === 'length') return 'reply truncated (finish_reason: length)';
  if (!text.trim()) return 'reply is empty';
  if (!text.includes('```python')) return 'reply has no python block (the whole reply was executed, as officially)';
  return undefined;
}
