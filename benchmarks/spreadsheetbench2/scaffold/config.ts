/**
 * The paper's two SWE-agent configurations (spreadsheet.yaml for Debugging, Financial_Model and Template;
 * visualisation.yaml for Visualization), read from templates/configs.json: the YAML files in upstream/ as PyYAML
 * parses them, regenerated with
 *   python3 -c "import yaml,json; …" (see upstream/README.md; every string template and the tools' and model's limits).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const configSchema = z.object({
  system_template: z.string(),
  instance_template: z.string(),
  next_step_template: z.string(),
  next_step_no_output_template: z.string(),
  next_step_truncated_observation_template: z.string(),
  command_cancelled_timeout_template: z.string(),
  max_observation_length: z.number().int().positive(),
  tools: z.object({
    execution_timeout: z.number().positive(),
    max_consecutive_execution_timeouts: z.number().int().positive(),
    env_variables: z.record(z.string(), z.string()),
  }),
  per_instance_call_limit: z.number().int().positive(),
});

export type ScaffoldConfig = z.infer<typeof configSchema>;

const CONFIGS = z
  .object({ spreadsheet: configSchema, visualisation: configSchema })
  .parse(JSON.parse(readFileSync(path.join(HERE, 'templates', 'configs.json'), 'utf8')));

/** The configuration the release runs a category with: visualisation.yaml for Visualization, else spreadsheet.yaml. */
export function scaffoldConfigFor(category: string): { name: 'spreadsheet' | 'visualisation'; config: ScaffoldConfig } {
  return category === 'Visualization'
    ? { name: 'visualisation', config: CONFIGS.visualisation }
    : { name: 'spreadsheet', config: CONFIGS.spreadsheet };
}

/** The upstream tool scripts placed on the shell's PATH (view_xlsx, submit), byte for byte. */
export function upstreamToolScripts(): Record<string, string> {
  const read = (name: string) => readFileSync(path.join(HERE, 'upstream', name), 'utf8');
  return { view_xlsx: read('view_xlsx'), submit: read('submit') };
}
