import type { SpreadsheetAgent } from '../../../benchmarks/spreadsheetbench/agentSettings';
import type { Agent } from './agent';
import { singleAgent } from './single';
import { multiRoundAgent } from './multiRound';
import { sheetCopilotAgent } from './sheetcopilot';
import { checkedVoteAgent } from './checkedVote';

/** Agents by the name used on the CLI (`--agent`): one for each SpreadsheetBench setting, and our own (checked_vote). */
export const AGENTS: Record<SpreadsheetAgent, Agent> = {
  single: singleAgent,
  row_exec: multiRoundAgent('single'),
  react_exec: multiRoundAgent('react_no_preview'),
  row_react_exec: multiRoundAgent('react_preview'),
  sheetcopilot: sheetCopilotAgent,
  checked_vote: checkedVoteAgent,
};
