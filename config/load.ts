import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { configSchema, type Config } from './schema';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Overrides = { [K in keyof Config]?: Partial<Config[K]> };

/** Reads `sheetbench.config.json` (or SHEETBENCH_CONFIG) and environment variables; `overrides` (CLI flags) win. */
export function loadConfig(
  overrides: Overrides = {},
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Config {
  const file = env.SHEETBENCH_CONFIG ?? path.join(cwd, 'sheetbench.config.json');
  let fromFile: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ConfigError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
    }
  } else if (env.SHEETBENCH_CONFIG) {
    throw new ConfigError(`config file ${file} (SHEETBENCH_CONFIG) does not exist`);
  }
  const fromEnv: Overrides = {
    temporal: clean({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE }),
    llm: clean({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.SHEETBENCH_MODEL }),
    artifacts: clean({ root: env.SHEETBENCH_ARTIFACTS_ROOT }),
  };
  const merged = mergeSections(mergeSections(fromFile, fromEnv), overrides);
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

function clean<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}

function mergeSections(a: Overrides, b: Overrides): Overrides {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b))
    out[k] = { ...((a as Record<string, object>)[k] ?? {}), ...clean((v ?? {}) as Record<string, unknown>) };
  return out;
}
