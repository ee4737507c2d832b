import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../config/paths';

/** One embedded model (lib/llm/localModels.json, which set-up's scripts/fetch-model.py reads too). */
export interface LocalModelSpec {
  title: string;
  file: string;
  bytes: number;
  sha256: string;
  packages: string[];
  upstream: string;
  installedBy: 'default' | 'option';
}

interface Registry {
  default: string;
  models: Record<string, LocalModelSpec>;
}

const registry = JSON.parse(readFileSync(path.join(REPO_ROOT, 'lib/llm/localModels.json'), 'utf8')) as Registry;

export const LOCAL_MODELS: Readonly<Record<string, LocalModelSpec>> = registry.models;

/** The model `npm start`, `ask` and `run` use when no endpoint is given. */
export const DEFAULT_LOCAL_MODEL = registry.default;

export const LOCAL_MODELS_DIR = path.join(REPO_ROOT, '.tools', 'models');

/** The embedded model a name means: a registry name, or `local` for the default; undefined for any other name. */
export function localModelNamed(name: string): { name: string; spec: LocalModelSpec } | undefined {
  const key = name === 'local' ? DEFAULT_LOCAL_MODEL : name;
  const spec = registry.models[key];
  return spec ? { name: key, spec } : undefined;
}

/** The set-up command that installs an embedded model. */
export function installCommand(name: string): string {
  return registry.models[name]?.installedBy === 'option'
    ? `bash scripts/setup.sh --with-model ${name}`
    : 'bash scripts/setup.sh';
}
