import { z } from 'zod';

/** Analysis conversations (the agent of `sheetbench serve` / `ask`): where they live and what one may spend. */
export const conversationConfigSchema = z
  .strictObject({
    dir: z
      .string()
      .default('.state/conversations')
      .describe(
        'Conversation folders (workspace, event log, transcripts, debug records), each made private (mode 700).',
      ),
    maxMessageChars: z.number().int().positive().default(20_000).describe('Longest user message, in characters.'),
    maxUploadBytes: z
      .number()
      .int()
      .positive()
      .default(50 * 1024 * 1024)
      .describe('Largest file a user may attach.'),
    maxSteps: z
      .number()
      .int()
      .positive()
      .default(12)
      .describe(
        "Model steps per turn, each a reply and the tool calls it asks for (every pattern's loops are " +
          'bounded by it too).',
      ),
    budgetTokens: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Whole-conversation token budget; a turn that would exceed it stops with a budget error.'),
    budgetUsd: z
      .number()
      .positive()
      .optional()
      .describe('Whole-conversation dollar budget; a turn that would exceed it stops with a budget error.'),
    budgetSteps: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Whole-conversation budget of model steps; a turn that would exceed it stops with a budget error.'),
    maxRepeatedFailures: z
      .number()
      .int()
      .positive()
      .default(3)
      .describe('The same failing tool call (same tool, same arguments) this many times ends the turn.'),
    branches: z
      .number()
      .int()
      .min(2)
      .max(5)
      .default(3)
      .describe('Parallel branches of Tree-of-Thoughts and agents of Ensemble.'),
    turnsPerRun: z
      .number()
      .int()
      .positive()
      .default(20)
      .describe('Turns before the conversation workflow continues as new (its history stays small).'),
    crossCheck: z
      .boolean()
      .default(true)
      .describe(
        'An answer stating numbers is computed again by a second, independently written program; when the two ' +
          'disagree the answer is revised once or shown with a note (one to three more model steps per turn).',
      ),
    toolCalling: z
      .enum(['native', 'text'])
      .default('native')
      .describe(
        '`text` describes tools in the prompt and parses ```action blocks (endpoints without native tool ' +
          'calling; the embedded models always use it).',
      ),
  })
  .describe('Analysis conversations (`sheetbench serve` / `ask`): where they live, limits and budgets.');
