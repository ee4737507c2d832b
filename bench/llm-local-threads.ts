/**
 * Local inference speed by threads per request (issue 32 item 3), one request at a time: prompt tokens per second (a
 * real checked_vote prompt of a dev20 task, fresh context, a 1-token reply) and generation tokens per second (a short
 * prompt asking for a long program, its reply capped at --reply-tokens; the short prompt's time is negligible).
 * Each thread count is measured --repeats times, alternating, so load from other processes hits both alike.
 *
 *   node --import tsx bench/llm-local-threads.ts [--model local-qwen2.5-coder-0.5b] [--task 57105] [--threads 1,2]
 *     [--reply-tokens 128] [--repeats 2]
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
    threads: { type: 'string', default: '1,2' },
    'reply-tokens': { type: 'string', default: '128' },
    repeats: { type: 'string', default: '2' },
  },
});
const { task, view } = dev20TaskView(args.task);
const prompt: ChatMessage[] = [
  { role: 'system', content: PYTHON_SYSTEM_PROMPT },
  { role: 'user', content: taskPrompt(task, view) },
];
const long: ChatMessage[] = [
  {
    role: 'user',
    content: 'Write a long Python module with openpyxl that reads a workbook and writes ten different summary sheets.',
  },
];
const replyTokens = Number(args['reply-tokens']);

await loadLocalModel(undefined, args.model);
process.stdout.write(
  `${args.model}, task ${args.task}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}\n`,
);
const threadCounts = args.threads.split(',').map(Number);
for (let r = 0; r < Number(args.repeats); r++) {
  for (const threads of threadCounts) {
    const provider = new LocalProvider({ reusePrefix: false, threads });
    let t = performance.now();
    const p = await provider.complete({ model: args.model, messages: prompt, temperature: 0, maxTokens: 1 });
    const promptS = (performance.now() - t) / 1000;
    t = performance.now();
    const g = await provider.complete({ model: args.model, messages: long, temperature: 0, maxTokens: replyTokens });
    const genS = (performance.now() - t) / 1000;
    process.stdout.write(
      `threads ${threads}: prompt ${p.usage.inputTokens} tok in ${promptS.toFixed(1)} s = ${(p.usage.inputTokens / promptS).toFixed(1)} tok/s; ` +
        `generation ${g.usage.outputTokens} tok in ${genS.toFixed(1)} s = ${(g.usage.outputTokens / genS).toFixed(1)} tok/s (load ${os.loadavg()[0].toFixed(1)})\n`,
    );
  }
}
