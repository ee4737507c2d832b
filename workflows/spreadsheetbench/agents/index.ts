import type { Agent } from './agent';
import { singleAgent } from './single';
import { multiRoundAgent } from './multiRound';
import { sheetCopilotAgent } from './sheetcopilot';

/** Agents by the name used on the CLI (`--agent`). */
export const AGENTS: Record<string, Agent> = {
  single: singleAgent,
  row_exec: multiRoundAgent('single'),
  react_exec: multiRoundAgent('react_no_preview'),
  row_react_exec: multiRoundAgent('react_preview'),
  sheetcopilot: sheetCopilotAgent,
};

/** The `<setting>` part of the official output folder name for each agent. */
export const AGENT_SETTINGS: Record<string, string> = {
  single: 'single',
  row_exec: 'multi_row_exec',
  react_exec: 'multi_react_exec',
  row_react_exec: 'multi_row_react_exec',
  sheetcopilot: 'sheetcopilot',
};
