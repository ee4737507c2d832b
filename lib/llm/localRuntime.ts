import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LlmError } from './errors';
import { REPO_ROOT } from '../../config/paths';

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
  readonly tokenMeter: { getState(): object; diff(before: object): { usedInputTokens: number; usedOutputTokens: number } };
}
export type LlamaHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: string[] };
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
const defaultModelsDir = path.join(repoRoot, '.tools', 'models');

const loaded = new Map<string, Promise<LoadedLocalModel>>();

/** Loads node-llama-cpp and the GGUF once per process (per model path); later calls share the promise. */
export function loadLocalModel(modelPath?: string): Promise<LoadedLocalModel> {
  const resolved = modelPath ? path.resolve(modelPath) : defaultModelPath();
  let model = loaded.get(resolved);
  if (!model) {
    model = load(resolved);
    loaded.set(resolved, model);
    model.catch(() => loaded.delete(resolved));
  }
  return model;
}

async function load(modelPath: string): Promise<LoadedLocalModel> {
  if (!existsSync(modelPath)) throw notInstalled(`model file ${modelPath} not found`);
  const llama = await importLlama();
  const runtime = await llama.getLlama({ gpu: false, build: 'never' });
  return { llama, model: await runtime.loadModel({ modelPath }), modelPath };
}

async function importLlama(): Promise<LlamaModule> {
  const manifest = path.join(llamaPackageDir, 'package.json');
  if (!existsSync(manifest)) throw notInstalled(`node-llama-cpp not found in ${path.dirname(llamaPackageDir)}`);
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string; exports?: { '.'?: { import?: string } } };
  const entry = pkg.exports?.['.']?.import ?? pkg.main ?? 'index.js';
  return (await import(pathToFileURL(path.join(llamaPackageDir, entry)).href)) as LlamaModule;
}

function defaultModelPath(): string {
  const gguf = existsSync(defaultModelsDir) ? readdirSync(defaultModelsDir).filter((f) => f.endsWith('.gguf')).sort()[0] : undefined;
  if (!gguf) throw notInstalled(`no .gguf model in ${defaultModelsDir}`);
  return path.join(defaultModelsDir, gguf);
}

function notInstalled(what: string): LlmError {
  return new LlmError('bad_request', `local model unavailable: ${what}; run npm run setup (or set llm.localModelPath)`, {
    retryable: false,
  });
}
