import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type TestTemporal } from './temporalServer';

/** The API key the CLI tests give the scripted model server (not a secret). */
export const TEST_API_KEY = 'test-key-not-secret';

export interface CliWorkspace {
  /** A fresh temporary folder holding `config.json`; the CLI runs in it. */
  work: string;
  /** The environment that points bin/sheetbench at that `config.json` and at the test's Temporal server. */
  env: NodeJS.ProcessEnv;
}

/** A temporary folder with `config` as its config.json, and the environment the CLI needs to use it and `temporal`. */
export function cliWorkspace(
  prefix: string,
  temporal: TestTemporal,
  config: object,
  apiKey: string = TEST_API_KEY,
): CliWorkspace {
  const work = mkdtempSync(path.join(os.tmpdir(), prefix));
  const configFile = path.join(work, 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const env = {
    ...process.env,
    SHEETBENCH_CONFIG: configFile,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace,
    OPENAI_API_KEY: apiKey,
  };
  return { work, env };
}
