import path from 'node:path';
import { namesInFolder } from '../../lib/runStore/files';
import { readRequiredJson } from '../../lib/json';
import { z } from 'zod';
import { RunLayout } from '../../lib/runStore/runLayout';
import type { RunManifest } from '../../lib/runStore/manifest';
import { localModelNamed } from '../../lib/llm/localModels';

/** What this reads of a task result (results/<key>.json): its test-case verdicts, their reasons, its failure. */
const resultFactsSchema = z.looseObject({
  testCaseResults: z.array(z.number()),
  reasons: z.array(z.string().nullable()),
  failure: z.looseObject({ class: z.string(), message: z.string() }).optional(),
});
type ResultFacts = z.infer<typeof resultFactsSchema>;

/**
 * What the scores of a run by an embedded model mean, in plain words: how many tasks got code that ran and wrote a
 * workbook, how many cells matched, and why a small offline model scores near zero. Empty for other models.
 */
export async function embeddedModelMeaning(runDir: string, manifest: Pick<RunManifest, 'llm'>): Promise<string[]> {
  if (manifest.llm.provider !== 'local') return [];
  const results = await readResults(runDir);
  if (!results.length) return [];
  const wroteOutput = results.filter((r) => r.reasons.some((reason) => reason !== 'File not exist')).length;
  const passed = results.filter((r) => r.testCaseResults.length && r.testCaseResults.every((x) => x === 1)).length;
  const someCases = results.filter((r) => r.testCaseResults.some((x) => x === 1)).length;
  const failed = results.filter((r) => r.failure).length;
  const title = localModelNamed(manifest.llm.model)?.spec.title ?? manifest.llm.model;
  return [
    '',
    `What this means: the embedded model ${title} ran offline on this machine's CPU. On ${results.length} tasks its code ` +
      `wrote an output workbook for ${wroteOutput}; ${someCases} got at least one test case right and ${passed} all of them` +
      `${failed ? `; ${failed} ended with a failure (listed above)` : ''}.`,
    "A model this small scores near zero on SpreadsheetBench (the paper's Table 2 gives CodeQwen 7B 0.51 soft, single round);",
    'the run shows every part working for real — model, sandbox, recalculation, official scoring — not what a capable model scores.',
    'For that, point it at one: --model NAME --base-url URL with OPENAI_API_KEY (README). Per-task reasons: sheetbench report ' +
      path.basename(runDir),
  ];
}

async function readResults(runDir: string): Promise<ResultFacts[]> {
  const dir = new RunLayout(runDir).resultsDir;
  const files = (await namesInFolder(dir)).filter((f) => f.endsWith('.json'));
  return Promise.all(files.map((f) => readRequiredJson(path.join(dir, f), resultFactsSchema)));
}
