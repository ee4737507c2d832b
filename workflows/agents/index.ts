import type { Agent } from './agent';
import { singleAgent } from './single';

/** Agents by the name used on the CLI (`--agent`). */
export const AGENTS: Record<string, Agent> = {
  single: singleAgent,
};

/** The `<setting>` part of the official output folder name for each agent. */
export const AGENT_SETTINGS: Record<string, string> = {
  single: 'single',
  row_exec: 'multi_row_exec',
  react_exec: 'multi_react_exec',
  row_react_exec: 'multi_row_react_exec',
  sheetcopilot: 'sheetcopilot',
};
