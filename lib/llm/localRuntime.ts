import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LlmError } from './errors';
import { REPO_ROOT } from '../../config/paths';
import { DEFAULT_LOCAL_MODEL, installCommand, LOCAL_MODELS, LOCAL_MODELS_DIR, localModelNamed } from './localModels';

/**
 * node-llama-cpp lives in `.tools/llama/node_modules` (installed by `npm run setup`), not in the project's
 * dependencies, so it is loaded by absolute path and typed here by the few members the local provider uses.
 */
export interface LlamaModule {
  getLlama(opts: { gpu: false; build: 'never' }): Promise<Llama>;
  LlamaChat: new (opts: { contextSequence: LlamaSequence }) => LlamaChat;
}
interface Llama {
  loadModel(opts: { modelPath: string }): Promise<LlamaModel>;
}
export interface LlamaModel {
  readonly trainContextSize: number;
  tokenize(text: string): unknown[];
  createContext(opts: { contextSize: number; threads: number }): Promise<LlamaContext>;
}
export interface LlamaContext {
  getSequence(): LlamaSequence;
  dispose(): Promise<void>;
}
export interface LlamaSequence {
  /** The tokens the sequence holds (its KV cache): the last prompt and reply. */
  readonly contextTokens: readonly unknown[];
  readonly tokenMeter: {
    getState(): object;
    diff(before: object): { usedInputTokens: number; usedOutputTokens: number };
  };
}
export type LlamaHistoryItem =
  { type: 'system'; text: string } | { type: 'user'; text: string } | { type: 'model'; response: string[] };
export interface LlamaChat {
  generateResponse(
    history: LlamaHistoryItem[],
    opts: { maxTokens: number; temperature?: number; signal?: AbortSignal },
  ): Promise<{ response: string; metadata: { stopReason: string } }>;
}

export interface LoadedLocalModel {
  llama: LlamaModule;
  model: LlamaModel;
  modelPath: string;
}

export const repoRoot = REPO_ROOT;
const llamaPackageDir = path.join(repoRoot, '.tools', 'llama', 'node_modules', 'node-llama-cpp');

const loaded = new Map<string, Promise<LoadedLocalModel>>();

/**
 * Loads node-llama-cpp and the GGUF once per process (per model path); later calls share the promise. The file is
 * `modelPath` when given, else the embedded model `modelName` names (default: the embedded default).
 */
export function loadLocalModel(modelPath?: string, modelName = DEFAULT_LOCAL_MODEL): Promise<LoadedLocalModel> {
  const resolved = modelPath ? path.resolve(modelPath) : embeddedModelPath(modelName);
  let model = loaded.get(resolved);
  if (!model) {
    model = load(resolved);
    loaded.set(resolved, model);
    model.catch(() => loaded.delete(resolved));
  }
  return model;
}

async function load(modelPath: string): Promise<LoadedLocalModel> {
  if (!existsSync(modelPath)) throw notInstalled(`model file ${modelPath} not found`, 'bash scripts/setup.sh');
  const llama = await importLlama();
  const runtime = await llama.getLlama({ gpu: false, build: 'never' });
  return { llama, model: await runtime.loadModel({ modelPath }), modelPath };
}

async function importLlama(): Promise<LlamaModule> {
  const manifest = path.join(llamaPackageDir, 'package.json');
  if (!existsSync(manifest))
    throw notInstalled(`node-llama-cpp not found in ${path.dirname(llamaPackageDir)}`, 'bash scripts/setup.sh');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string; exports?: { '.'?: { import?: string } } };
  const entry = pkg.exports?.['.']?.import ?? pkg.main ?? 'index.js';
  return (await import(pathToFileURL(path.join(llamaPackageDir, entry)).href)) as LlamaModule;
}

/** The installed file of an embedded model; a name that is none, or a model not installed, names the fix. */
export function embeddedModelPath(modelName: string): string {
  const model = localModelNamed(modelName);
  if (!model) {
    throw new LlmError(
      'bad_request',
      `${modelName} is not an embedded model (embedded: ${Object.keys(LOCAL_MODELS).join(', ')}); for a model behind an endpoint give --base-url and OPENAI_API_KEY, for another GGUF file set llm.localModelPath`,
      { retryable: false },
    );
  }
  const file = path.join(LOCAL_MODELS_DIR, model.spec.file);
  if (!existsSync(file))
    throw notInstalled(
      `${model.name} (${model.spec.title}) is not installed: ${file} not found`,
      installCommand(model.name),
    );
  return file;
}

function notInstalled(what: string, fix: string): LlmError {
  return new LlmError(
    'bad_request',
    `local model unavailable: ${what}. Fix: run \`${fix}\` (or set llm.localModelPath)`,
    { retryable: false },
  );
}
