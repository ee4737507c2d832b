import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { configSchema, type Config } from './schema';
import { LegacyKeyConflict, migrateLegacyKeys } from './legacyKeys';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Overrides = { [K in keyof Config]?: Partial<Config[K]> };

/** Deprecation lines already printed by this process (a command may load the config more than once). */
const warned = new Set<string>();

function warnOnce(line: string): void {
  if (warned.has(line)) return;
  warned.add(line);
  process.stderr.write(`${line}\n`);
}

/**
 * Reads `sheetbench.config.json` (or SHEETBENCH_CONFIG) and environment variables; `overrides` (CLI flags) win. Keys
 * of older versions are read under their new names (config/legacyKeys.ts), each with a one-line warning to `warn`.
 */
export function loadConfig(
  overrides: Overrides = {},
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  warn: (line: string) => void = warnOnce,
): Config {
  const file = env.SHEETBENCH_CONFIG ?? path.join(cwd, 'sheetbench.config.json');
  const fromFile = withNewKeys(readConfigFile(file, env), ` in ${file}`, warn);
  const fromEnv: Overrides = {
    temporal: clean({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE }),
    llm: clean({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.SHEETBENCH_MODEL }),
    artifacts: clean({ root: env.SHEETBENCH_ARTIFACTS_ROOT }),
  };
  const fromFlags = withNewKeys(overrides, '', warn);
  const merged = mergeSections(mergeSections(fromFile, fromEnv), fromFlags);
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

function readConfigFile(file: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  if (!existsSync(file)) {
    if (env.SHEETBENCH_CONFIG) throw new ConfigError(`config file ${file} (SHEETBENCH_CONFIG) does not exist`);
    return {};
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** `raw` with the keys of older versions moved to their new places; `where` ends the warnings and errors. */
function withNewKeys(raw: Record<string, unknown>, where: string, warn: (line: string) => void): Overrides {
  try {
    return migrateLegacyKeys(raw, (line) => warn(`${line}${where}`));
  } catch (err) {
    if (err instanceof LegacyKeyConflict) throw new ConfigError(`${err.message}${where}`);
    throw err;
  }
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
