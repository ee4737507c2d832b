/**
 * LLM calls and tokens per task per agent on dev20 with the scripted server (real Temporal, sandbox, LibreOffice).
 * The scripted model answers every prompt with the same small solution shape, so the numbers show what each agent's
 * protocol costs (prompt sizes, rounds, stages), not model quality. Usage: node --import tsx bench/agents-cost.ts [agents]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptedRequest } from '../lib/scriptedLlm';
import type { RunProgress } from '../contracts/run';

// test/helpers/e2e.ts uses CommonJS `__dirname` (fine under vitest); give it one when run as an ES module.
(globalThis as { __dirname?: string }).__dirname ??= path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../test/helpers',
);
const { startE2E, startBenchmarkRun, startInProcessWorkers, readTaskResult } = await import('../test/helpers/e2e');
const { DEV20 } = await import('../test/helpers/datasets');

const AGENTS = (process.argv[2] ?? 'single,row_exec,react_exec,row_react_exec,sheetcopilot').split(',');
const TASKS = (JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as { id: number | string }[]).map(
  (t) => String(t.id),
);

/** A copy-input-to-output solution (official prompts name literal paths; SheetCopilot predefines the variables). */
function reply(request: ScriptedRequest): string {
  const first = request.messages[0]?.content ?? '';
  if (/VALIDATION|Stage 5/.test(request.messages.at(-1)?.content ?? '') && request.messages.length > 5)
    return 'VALIDATION PASSED';
  if (/Stage [23]/.test(request.messages.at(-1)?.content ?? '')) return '## 1. Core Objective\nCopy the workbook.';
  const input = /### spreadsheet_path\n(.+)\n/.exec(first)?.[1];
  const output = /### output_path\n(.+)\n/.exec(first)?.[1];
  const load = input ? `'${input}'` : 'input_path';
  const save = output ? `'${output}'` : 'output_path';
  return `\`\`\`python\nimport openpyxl\nwb = openpyxl.load_workbook(${load})\nwb.save(${save})\n\`\`\``;
}

const env = await startE2E({ rules: [], fallback: reply }, { config: { run: { concurrency: 4 } } });
const workers = await startInProcessWorkers(env);
const running = workers.run();
try {
  console.log('agent            tasks  calls/task  in-tok/task  out-tok/task  wall s');
  for (const agent of AGENTS) {
    const started = Date.now();
    const run = await startBenchmarkRun(env, { dataset: DEV20, agent });
    await (run.handle.result() as Promise<RunProgress>);
    const results = TASKS.map((t) => readTaskResult(run.runDir, t));
    const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((a, r) => a + f(r), 0) / results.length;
    console.log(
      `${agent.padEnd(16)} ${String(results.length).padStart(5)}  ${sum((r) => r.llmCalls)
        .toFixed(2)
        .padStart(10)}  ${sum((r) => r.usage.inputTokens)
        .toFixed(0)
        .padStart(11)}  ${sum((r) => r.usage.outputTokens)
        .toFixed(0)
        .padStart(12)}  ${((Date.now() - started) / 1000).toFixed(1).padStart(6)}`,
    );
  }
} finally {
  await workers.shutdown();
  await running;
  await env.close();
}
