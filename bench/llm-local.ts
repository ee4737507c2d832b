/**
 * Local model latency: model load, then a few short chat calls (the per-call cost the single agent pays on machines
 * without an API key). Run: node --import tsx bench/llm-local.ts [calls] [maxTokens]
 */
import { loadLocalModel } from '../lib/llm/localRuntime';
import { LocalProvider } from '../lib/llm/localProvider';

const calls = Number(process.argv[2] ?? 3);
const maxTokens = Number(process.argv[3] ?? 32);
const messages = [
  { role: 'system' as const, content: 'You write Python code with openpyxl.' },
  { role: 'user' as const, content: 'Write code that puts the sum of A1:A10 into B1 of input.xlsx.' },
];

let t = performance.now();
await loadLocalModel(undefined, process.env.SHEETBENCH_MODEL);
console.log(`model load: ${Math.round(performance.now() - t)} ms`);
const provider = new LocalProvider();
for (let i = 0; i < calls; i++) {
  t = performance.now();
  const reply = await provider.complete({
    model: process.env.SHEETBENCH_MODEL ?? 'local',
    maxTokens,
    temperature: 0,
    messages,
  });
  const ms = performance.now() - t;
  const { inputTokens, outputTokens } = reply.usage;
  console.log(
    `call ${i}: ${Math.round(ms)} ms, ${inputTokens} in / ${outputTokens} out, ${(outputTokens / (ms / 1000)).toFixed(1)} tok/s, finish ${reply.finishReason}`,
  );
}
