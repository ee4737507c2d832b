import type { Config } from '../../config/schema';
import type { ConversationSettings } from '../../contracts/conversation';

/** A conversation's limits and budgets, from the config: what its workflow input carries. */
export function conversationSettings(config: Config): ConversationSettings {
  const c = config.conversation;
  return {
    maxMessageChars: c.maxMessageChars,
    // Recorded in conversation workflow inputs (histories) under its older name; the config calls it maxSteps.
    maxStepsPerTurn: c.maxSteps,
    budgetTokens: c.budgetTokens,
    budgetUsd: c.budgetUsd,
    budgetSteps: c.budgetSteps,
    maxRepeatedFailures: c.maxRepeatedFailures,
    branches: c.branches,
    turnsPerRun: c.turnsPerRun,
    crossCheck: c.crossCheck,
  };
}
