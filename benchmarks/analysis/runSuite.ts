import { conversationDir, conversationLayout } from '../../analysis/conversation/layout';
import type { ConversationService } from '../../client/conversations';
import type { VisualizationOutput } from '../../analysis/conversation/types';
import type { Pattern } from '../../contracts/conversation';
import { summaryQuery } from '../../contracts/conversation';
import type { Client } from '@temporalio/client';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { filesDir, requestText, type AnalysisSuite, type AnalysisTask } from './dataset';
import { scoreAnalysis } from './score';

export interface SuiteResult {
  taskId: string;
  level: number;
  pattern: Pattern;
  status: string;
  pass: boolean;
  reason: string;
  steps: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface RunSuiteOptions {
  service: ConversationService;
  client: Client;
  patterns: Pattern[];
  /** Base URL of the server that serves `files/` for the fetch requests. */
  dataUrl: string;
  concurrency?: number;
  /** Question text as sent (the bench may append tags); default: the task's question with the URL filled in. */
  questionOf?: (task: AnalysisTask) => string;
}

/**
 * Runs every request under every pattern, each as its own conversation (a durable workflow), and scores it. The
 * agent's workspace gets only the request's files; answers stay in the suite folder.
 */
export async function runAnalysisSuite(suite: AnalysisSuite, opts: RunSuiteOptions): Promise<SuiteResult[]> {
  const jobs = opts.patterns.flatMap((pattern) => suite.tasks.map((task) => ({ task, pattern })));
  const results: SuiteResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      results.push(await runOne(suite, job.task, job.pattern, opts));
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  return results;
}

async function runOne(suite: AnalysisSuite, task: AnalysisTask, pattern: Pattern, opts: RunSuiteOptions): Promise<SuiteResult> {
  const { service } = opts;
  const conv = await service.create({ title: `${task.id} (${pattern})`, pattern });
  const uploads = await Promise.all(task.files.map(async (f) => ({ name: f, data: await readFile(path.join(filesDir(suite), f)) })));
  if (uploads.length) await service.upload(conv.id, uploads);
  const text = opts.questionOf?.(task) ?? requestText(task, opts.dataUrl);
  const { turnId } = await service.send(conv.id, { text, files: task.files });
  const events = await waitForEnd(service, conv.id, turnId);
  const summary = await opts.client.workflow.getHandle(service.workflowId(conv.id)).query(summaryQuery);
  const turn = summary.turns.find((t) => t.turnId === turnId)!;
  await service.close(conv.id);
  const answer = String(events.find((e) => e.type === 'answer')?.data.text ?? '');
  const visualizations = events.filter((e) => e.type === 'visualization').map((e) => e.data.output as VisualizationOutput);
  const workspaceDir = conversationLayout(conversationDir(service.root, conv.id)).workspace;
  const status = String(events.at(-1)?.data.status);
  const score = status === 'completed' ? await scoreAnalysis(suite.answers[task.id], { answer, visualizations, workspaceDir }) : { pass: false, reason: `turn ${status}` };
  return { taskId: task.id, level: task.level, pattern, status, ...score, steps: turn.steps, toolCalls: turn.toolCalls, ...turn.usage };
}

async function waitForEnd(service: ConversationService, id: string, turnId: string) {
  for (;;) {
    const events = (await service.events(id)).filter((e) => e.turnId === turnId);
    if (events.some((e) => e.type === 'turn_ended')) return events;
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Per pattern: requests passed, mean steps, tool calls and tokens per request. */
export function summariseByPattern(results: SuiteResult[]): Array<{ pattern: Pattern; passed: number; total: number; steps: number; toolCalls: number; tokens: number; costUsd: number }> {
  const patterns = [...new Set(results.map((r) => r.pattern))];
  return patterns.map((pattern) => {
    const rs = results.filter((r) => r.pattern === pattern);
    const mean = (f: (r: SuiteResult) => number) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
    return { pattern, passed: rs.filter((r) => r.pass).length, total: rs.length, steps: mean((r) => r.steps), toolCalls: mean((r) => r.toolCalls), tokens: mean((r) => r.inputTokens + r.outputTokens), costUsd: rs.reduce((s, r) => s + r.costUsd, 0) };
  });
}
