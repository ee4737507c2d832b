import path from 'node:path';
import { z } from 'zod';
import { readJsonOr, writeJsonAtomic } from '../lib/runStore/files';
import type { RunPricing } from '../lib/llm/pricing';

/** The prices of the run's models when it was created, and the models whose cost is unknown (lib/llm/pricing). */
export const PRICES_FILE = 'prices.json';

const recordedPricingSchema = z.object({ unpriced: z.array(z.string()) }).loose();

export async function writeRunPrices(runDir: string, pricing: RunPricing): Promise<void> {
  await writeJsonAtomic(path.join(runDir, PRICES_FILE), pricing);
}

/** The models of a run whose cost is unknown; [] for runs created before prices were recorded. */
export async function unpricedModelsOf(runDir: string): Promise<string[]> {
  const file = path.join(runDir, PRICES_FILE);
  const parsed = recordedPricingSchema.safeParse(await readJsonOr<unknown>(file, { unpriced: [] }));
  if (!parsed.success)
    throw new Error(`${file} is corrupt: ${parsed.error.issues[0]?.message ?? 'not a price record'}`);
  return parsed.data.unpriced;
}
