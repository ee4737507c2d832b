import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configSchema, type Config } from '../../config/schema';
import { createRun, planRun } from '../../client/createRun';

const SAMPLE = path.resolve(__dirname, '../../data/sample');

/** A config whose model is the scripted server at `baseUrl` (model "scripted", priced so costs are not zero). */
export function scriptedModelConfig(baseUrl: string): Config {
  return configSchema.parse({
    llm: {
      provider: 'openai',
      baseUrl,
      apiKey: 'k',
      model: 'scripted',
      prices: { scripted: { inputPerMTok: 2, outputPerMTok: 4 } },
    },
  });
}

/** A run of the bundled sample (data/sample) for `agent`, created in a new temporary folder, which is returned. */
export async function createSampleRun(
  config: Config,
  agent: Parameters<typeof planRun>[0]['agent'],
  runId: string,
  folderPrefix: string,
): Promise<string> {
  const runDir = mkdtempSync(path.join(os.tmpdir(), folderPrefix));
  await createRun(config, await planRun({ datasetDir: SAMPLE, agent }), { runDir, runId });
  return runDir;
}
