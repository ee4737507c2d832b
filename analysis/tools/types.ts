import type { z } from 'zod';
import type { AnalysisConfig } from '../../config/schema';
import type { SandboxFactory } from '../../lib/sandbox/types';
import type { HostLookup } from '../web/addressPolicy';

export type { AnalysisConfig } from '../../config/schema';

/** Everything a tool call may touch: one conversation's workspace on this worker, its limits, cancellation. */
export interface ToolContext {
  conversationId: string;
  /** Absolute path of the conversation's workspace folder on this worker (the artifact store). */
  workspaceDir: string;
  /** The `analysis` config section (limits, allowed packages, fetch options). */
  config: AnalysisConfig;
  /** Cancellation of the activity. */
  signal?: AbortSignal;
  heartbeat?: (details?: unknown) => void;
  /** Sandbox backend for python_execute / node_execute (default: one `auto` factory per worker, created lazily). */
  sandboxFactory?: SandboxFactory;
  /** DNS resolution for web_fetch (default: the system resolver); tests stub it. */
  lookupHost?: HostLookup;
  /**
   * The conversation's earlier successful Python cells, oldest first: python_execute re-runs them to restore a lost
   * kernel (worker restart, eviction, hard timeout). Without it a lost kernel is only reported (`stateReset`).
   */
  pythonHistory?: () => Promise<PythonCell[]>;
}

/** A python_execute call that ran cleanly, as a restore re-runs it. */
export interface PythonCell {
  code: string;
  workingDir?: string;
  turnId: string;
  callId: string;
}

export interface ToolOutcome<R = unknown> {
  ok: boolean;
  result?: R;
  /** A message the model can act on. */
  error?: string;
  durationMs: number;
}

export interface AnalysisTool<A = unknown, R = unknown> {
  name: string;
  description: string;
  args: z.ZodType<A>;
  run(args: A, ctx: ToolContext): Promise<R>;
}

/** Native OpenAI tool-calling spec. */
export interface OpenAIToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A refusal or failure caused by what the model asked for: reported as `ok:false` with this message, never thrown further. */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}

/** A workspace file as every tool reports it. */
export interface WorkspaceFile {
  filename: string;
  /** Workspace-relative, '/'-separated. */
  path: string;
  /** Kind from the extension: csv, json, png, xlsx, … ('file' when unknown). */
  type: string;
  size: number;
}
