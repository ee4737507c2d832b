/**
 * An episode's records in the run folder (tasks/<id>/scaffold/), one file per model reply and per shell step, so any
 * activity rebuilds the conversation from what earlier activities wrote (a retried or resumed step reads the same
 * files). The sandbox's work folder holds the task's files only; none of this is visible to the agent.
 */
import path from 'node:path';
import { z } from 'zod';
import { chatMessageSchema } from '../../../lib/llm/chatMessageSchema';
import type { ChatMessage, TokenUsage } from '../../../lib/llm/types';

export const scaffoldPaths = {
  dir: (taskDir: string) => path.join(taskDir, 'scaffold'),
  /** The model's reply of a turn's attempt and how it was parsed. */
  reply: (taskDir: string, turn: number, attempt: number) =>
    path.join(taskDir, 'scaffold', `turn-${turn}-attempt-${attempt}-reply.json`),
  /** The shell step run for that reply. */
  shell: (taskDir: string, turn: number, attempt: number) =>
    path.join(taskDir, 'scaffold', `turn-${turn}-attempt-${attempt}-shell.json`),
  /** A turn that entered the history: the reply with its call and the observation message. */
  turn: (taskDir: string, turn: number) => path.join(taskDir, 'scaffold', `turn-${turn}.json`),
  /** How the episode ended. */
  episode: (taskDir: string) => path.join(taskDir, 'scaffold', 'episode.json'),
};

export const replyRecordSchema = z.object({
  turn: z.number().int(),
  attempt: z.number().int(),
  callKey: z.string(),
  /** The assistant message as the model sent it (text, tool calls, reasoning). */
  message: chatMessageSchema,
  /** The command line it asks for, or why it cannot be run. */
  action: z.string().optional(),
  toolCallId: z.string().optional(),
  formatError: z.object({ code: z.string(), message: z.string() }).optional(),
  /** The user message of the next attempt (SWE-agent's requery), when this reply could not be run. */
  requery: z.string().optional(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).loose(),
  costUsd: z.number(),
  wallMs: z.number(),
});
export type ReplyRecord = z.infer<typeof replyRecordSchema>;
/** A reply record as written (the message and usage as the provider's types hold them). */
export type NewReplyRecord = Omit<ReplyRecord, 'message' | 'usage'> & { message: ChatMessage; usage: TokenUsage };

export const shellStateSchema = z.object({ cwd: z.string().optional(), exports: z.string().optional() });
export type ShellState = z.infer<typeof shellStateSchema>;

export const shellRecordSchema = z.object({
  turn: z.number().int(),
  attempt: z.number().int(),
  action: z.string(),
  syntaxError: z.boolean(),
  /** The requery message after a syntax error. */
  requery: z.string().optional(),
  timedOut: z.boolean(),
  submitted: z.boolean(),
  exitCode: z.number().nullable(),
  /** The tool message the model sees next (the observation through the templates). */
  observation: z.string(),
  /** Characters the shell printed (before any cut). */
  outputLength: z.number().int(),
  state: shellStateSchema,
  /** Time in the sandbox (start, command, end) and the command's own part. */
  wallMs: z.number(),
  sandboxError: z.string().optional(),
});
export type ShellRecord = z.infer<typeof shellRecordSchema>;

export const turnRecordSchema = z.object({
  turn: z.number().int(),
  assistant: chatMessageSchema,
  tool: chatMessageSchema,
  state: shellStateSchema,
});
export type TurnRecord = z.infer<typeof turnRecordSchema>;

export const EXIT_STATUSES = ['submitted', 'exit_cost', 'exit_format', 'exit_command_timeout', 'exit_error'] as const;
export type ExitStatus = (typeof EXIT_STATUSES)[number];

export const episodeRecordSchema = z.object({
  exitStatus: z.enum(EXIT_STATUSES),
  modelCalls: z.number().int(),
  turns: z.number().int(),
  /** Whether the agent left a file at the output path (copied to the run's outputs). */
  output: z.boolean(),
  /** Why the output was not taken (a link, not a regular file, too big). */
  outputProblem: z.string().optional(),
});
export type EpisodeRecord = z.infer<typeof episodeRecordSchema>;
