import { extractPythonCode } from '../../../benchmarks/codeAgent/codeExtraction';
import type { Agent } from './agent';

/** The official single-round setting: one prompt with a 5-row preview, code from the first python block. */
export const singleAgent: Agent = async (ctx) => {
  const reply = await ctx.callModel('generate', 'main', 0, { officialPrompt: 'single' });
  const solution = extractPythonCode(reply.text);
  return {
    solution,
    conversation: 'main',
    executedTestCases: [],
    problem:
      reply.finishReason === 'length'
        ? 'reply truncated (finish_reason: length)'
        : solution.trim()
          ? undefined
          : 'reply has no code',
  };
};
