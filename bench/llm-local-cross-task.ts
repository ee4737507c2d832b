/**
 * Reuse of the static prompt prefix across tasks (issue 32 item 3): checked_vote's formula prompts of two dev20 tasks,
 * one after the other, with a kept context (the second task evaluates only what follows the shared system prompt:
 * role, how to reply, worked examples) and with a fresh context per request. Replies capped at --reply-tokens.
 *
 *   node --import tsx bench/llm-local-cross-task.ts [--model local-qwen2.5-coder-0.5b] [--tasks 39604,54057]
 *     [--reply-tokens 8]
 *
 * Prints per call: wall time, prompt tokens, prompt tokens per second of wall time.
 * Measured (1.5B, 1 thread, load average 5-7 on 2 cores, 2026-11-26): 54057's prompt (1,698 tokens) after 39604's
 * took 41.6 s on a fresh context and 15.1 s on the kept one (40.8 -> 112.3 prompt tokens/s of wall): the ~900-token
 * system prompt is evaluated once.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { LocalProvider } from '../lib/llm/localProvider';
import { loadLocalModel } from '../lib/llm/localRuntime';
import { DEFAULT_LOCAL_MODEL } from '../lib/llm/localModels';
import type { ChatMessage } from '../lib/llm/types';
import { dev20TaskView } from './dev20TaskView';
import {
  FORMULA_SYSTEM_PROMPT,
  formulaTaskPrompt,
} from '../benchmarks/spreadsheetbench/agents/checkedVote/formulaPrompt';
import { formulaRegionOf } from '../benchmarks/spreadsheetbench/agents/checkedVote/formulaRegion';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: DEFAULT_LOCAL_MODEL },
    tasks: { type: 'string', default: '39604,54057' },
    'reply-tokens': { type: 'string', default: '8' },
  },
});

function promptOf(id: string): ChatMessage[] {
  const { task, view } = dev20TaskView(id);
  const region = formulaRegionOf(task.answer_position);
  if (!region) throw new Error(`task ${id}: its answer position has no formula region`);
  return [
    { role: 'system', content: FORMULA_SYSTEM_PROMPT },
    { role: 'user', content: formulaTaskPrompt(task, view, region) },
  ];
}

const prompts = args.tasks.split(',').map((id) => [id, promptOf(id)] as const);
await loadLocalModel(undefined, args.model);
process.stdout.write(`${args.model}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}\n`);
for (const reusePrefix of [false, true]) {
  const provider = new LocalProvider({ reusePrefix });
  let total = 0;
  for (const [id, messages] of prompts) {
    const t = performance.now();
    const reply = await provider.complete({
      model: args.model,
      messages,
      temperature: 0,
      maxTokens: Number(args['reply-tokens']),
    });
    const s = (performance.now() - t) / 1000;
    total += s;
    process.stdout.write(
      `${reusePrefix ? 'kept context ' : 'fresh context'} task ${id.padEnd(6)} ${s.toFixed(1).padStart(6)} s  prompt ${String(reply.usage.inputTokens).padStart(5)}  ${(reply.usage.inputTokens / s).toFixed(1).padStart(6)} prompt tok/s of wall (load ${os.loadavg()[0].toFixed(1)})\n`,
    );
  }
  process.stdout.write(`${reusePrefix ? 'kept context ' : 'fresh context'} total ${total.toFixed(1)} s\n`);
}
