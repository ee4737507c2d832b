import { existsSync, openSync, readFileSync, readSync, closeSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isCorruptFileError, parseJsonText } from '../../lib/json';
import type { LlmConfig } from '../../config/schema';
import { REPO_ROOT } from '../../config/paths';
import { usesLocalModel } from '../../lib/llm';
import { installCommand, LOCAL_MODELS, localModelNamed } from '../../lib/llm/localModels';
import { embeddedModelPath } from '../../lib/llm/localRuntime';
import { preflightModel } from '../../lib/llm/preflight';
import { fail, ok, splitFix, type Check } from './check';

/**
 * The model runs will use: an embedded one must be installed and verified (size, GGUF header, and the sha256 set-up
 * checked, recorded beside the file), with node-llama-cpp; an endpoint must answer, accept the key and serve the model.
 */
export function modelCheck(llm: LlmConfig): Check {
  return {
    name: 'model',
    run: async () => (usesLocalModel(llm) ? embedded(llm) : endpoint(llm)),
  };
}

async function endpoint(llm: LlmConfig) {
  const where = llm.baseUrl ?? 'https://api.openai.com/v1';
  try {
    await preflightModel(llm, 10_000);
    return ok(`${where} accepts the key and serves ${llm.model}`);
  } catch (err) {
    const message = (err as Error).message;
    const fix = /refused the API key/.test(message)
      ? 'export OPENAI_API_KEY=<a key this endpoint accepts> (or llm.apiKey in sheetbench.config.json)'
      : /does not (serve|know) model/.test(message)
        ? `give a model it serves: --model NAME (or SHEETBENCH_MODEL)`
        : /unreachable/.test(message)
          ? `check --base-url / OPENAI_BASE_URL (${where}), or drop it to use the embedded model`
          : 'check --base-url, OPENAI_API_KEY and --model';
    return fail(message, fix);
  }
}

async function embedded(llm: LlmConfig) {
  let file: string;
  try {
    file = llm.localModelPath ? path.resolve(llm.localModelPath) : embeddedModelPath(llm.model);
  } catch (err) {
    const { detail, fix } = splitFix((err as Error).message);
    const unknown = `--model ${Object.keys(LOCAL_MODELS).join(' or --model ')}; or --base-url URL with OPENAI_API_KEY for a model behind an endpoint`;
    return fail(
      detail.replace(/; for a model behind.*$/, ''),
      fix ?? (localModelNamed(llm.model) ? installCommand(llm.model) : unknown),
    );
  }
  if (!existsSync(file))
    return fail(`model file ${file} not found`, 'bash scripts/setup.sh (or correct llm.localModelPath)');
  const named = llm.localModelPath ? undefined : localModelNamed(llm.model);
  const fix = named
    ? `rm ${JSON.stringify(file)} && ${installCommand(named.name)}`
    : 'replace the file with a GGUF model';
  if (!isGguf(file)) return fail(`${file} is not a GGUF file`, fix);
  if (named) {
    const size = statSync(file).size;
    if (size !== named.spec.bytes) return fail(`${file} has ${size} bytes, ${named.spec.bytes} expected`, fix);
    const unverified = setupVerificationProblem(file, named.spec.sha256);
    if (unverified) return fail(unverified, fix);
  }
  const llama = path.join(REPO_ROOT, '.tools/llama/node_modules/node-llama-cpp/package.json');
  if (!existsSync(llama))
    return fail(`node-llama-cpp is not installed (${path.dirname(llama)})`, 'bash scripts/setup.sh');
  const title = named ? `${named.name} (${named.spec.title}, size and sha256 verified by set-up)` : file;
  return ok(`embedded model ${title}, runs offline on CPU`);
}

function isGguf(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    return head.toString('latin1') === 'GGUF';
  } finally {
    closeSync(fd);
  }
}

/** The stamp scripts/fetch-model.py (another process) writes beside a model it checked. */
const setupStampSchema = z.looseObject({ sha256: z.string(), bytes: z.number(), mtime: z.string() });

/**
 * Why set-up's verification of `file` does not hold, or undefined when it does. scripts/fetch-model.py records the
 * sha256 it checked and the file's size and mtime; no stamp or a changed file needs checking again; a corrupt stamp
 * is named as such (the file and the problem), not taken for a missing one.
 */
export function setupVerificationProblem(file: string, sha256: string): string | undefined {
  const stampFile = `${file}.verified`;
  let text: string;
  try {
    text = readFileSync(stampFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return `${file} was not verified by set-up (sha256)`;
    throw err;
  }
  let stamp: z.output<typeof setupStampSchema>;
  try {
    stamp = parseJsonText(text, setupStampSchema, stampFile);
  } catch (err) {
    if (isCorruptFileError(err)) return err.message;
    throw err;
  }
  const info = statSync(file, { bigint: true });
  const same = stamp.sha256 === sha256 && stamp.bytes === Number(info.size) && stamp.mtime === String(info.mtimeNs);
  return same ? undefined : `${file} changed since set-up verified it (sha256)`;
}
