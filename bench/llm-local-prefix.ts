/**
 * Local inference with and without reuse of the evaluated prompt prefix (issue 32 item 3), on the calls checked_vote
 * makes for one real dev20 task: the first candidate (system prompt + workbook view + task), its repair (the same
 * conversation, longer), the second candidate (the first prompt again, another temperature), and a repeat of it with a
 * longer reply (nearly all prompt reused: its speed is the generation speed). Each mode loads the model once.
 *
 *   node --import tsx bench/llm-local-prefix.ts [--model local-qwen2.5-coder-0.5b] [--task 57105] [--reply-tokens 48]
 *
 * Prints per call: wall time, prompt tokens, reply tokens, prompt tokens per second of wall time; per mode the total.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { LocalProvider } from '../lib/llm/localProvider';
import { loadLocalModel } from '../lib/llm/localRuntime';
import { DEFAULT_LOCAL_MODEL } from '../lib/llm/localModels';
import type { ChatMessage } from '../lib/llm/types';
import { dev20TaskView } from './dev20TaskView';
import { PYTHON_SYSTEM_PROMPT, taskPrompt } from '../benchmarks/spreadsheetbench/agents/checkedVote/prompt';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: DEFAULT_LOCAL_MODEL },
    task: { type: 'string', default: '57105' },
    'reply-tokens': { type: 'string', default: '48' },
  },
});
const { task, view } = dev20TaskView(args.task);
const first: ChatMessage[] = [
  { role: 'system', content: PYTHON_SYSTEM_PROMPT },
  { role: 'user', content: taskPrompt(task, view) },
];
const replyTokens = Number(args['reply-tokens']);

let t = performance.now();
await loadLocalModel(undefined, args.model);
process.stdout.write(
  `${args.model}, task ${args.task}, load ${Math.round(performance.now() - t)} ms, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}\n`,
);

const totals: Record<string, number> = {};
for (const reusePrefix of [false, true]) {
  const provider = new LocalProvider({ reusePrefix });
  const mode = reusePrefix ? 'reuse prefix' : 'fresh context';
  const call = async (name: string, messages: ChatMessage[], temperature: number, maxTokens = replyTokens) => {
    t = performance.now();
    const reply = await provider.complete({ model: args.model, messages, temperature, maxTokens });
    const s = (performance.now() - t) / 1000;
    totals[mode] = (totals[mode] ?? 0) + s;
    process.stdout.write(
      `${mode.padEnd(14)} ${name.padEnd(22)} ${s.toFixed(1).padStart(6)} s  prompt ${String(reply.usage.inputTokens).padStart(5)}  reply ${String(reply.usage.outputTokens).padStart(4)}  ${(reply.usage.inputTokens / s).toFixed(1).padStart(7)} prompt tok/s of wall\n`,
    );
    return reply.text;
  };
  const answer = await call('candidate 1', first, 0);
  const repair: ChatMessage[] = [
    ...first,
    { role: 'assistant', content: answer },
    {
      role: 'user',
      content: 'Your solve(wb) raised KeyError on input 2. Reply with the complete corrected solve(wb).',
    },
  ];
  await call('repair of candidate 1', repair, 0);
  await call('candidate 2', first, 0.7);
  t = performance.now();
  await call('candidate 2, long reply', first, 0.7, replyTokens * 4);
}
process.stdout.write(
  `total: ${Object.entries(totals)
    .map(([m, s]) => `${m} ${s.toFixed(1)} s`)
    .join(', ')}\n`,
);
