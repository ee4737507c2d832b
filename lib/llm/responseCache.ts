import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CorruptFileError, readJsonFile, warnCorruptFile } from '../json';
import { canonicalJson } from './canonicalJson';
import { legacyCallKeys } from './callKey';
import type { ChatRequest, ChatResponse, CompleteOptions, LlmProvider } from './types';

/** Bump when the key recipe or the stored format changes, so old entries are never misread. */
const CACHE_FORMAT = 1;

const storedResponseSchema = z.object({
  format: z.literal(CACHE_FORMAT),
  key: z.string(),
  /** The payer of the call that received the reply (CachedCompleteOptions.payer); absent in older entries. */
  paidBy: z.string().optional(),
  response: z.object({
    text: z.string(),
    toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
    reasoning: z.string().optional(),
    finishReason: z.enum(['stop', 'length', 'content_filter', 'tool_calls', 'other']),
    usage: z.object({
      inputTokens: z.number(),
      outputTokens: z.number(),
      cachedInputTokens: z.number().optional(),
      reasoningTokens: z.number().optional(),
    }),
    model: z.string(),
    requestId: z.string().optional(),
    adjustments: z.array(z.string()).optional(),
    batchId: z.string().optional(),
  }),
});

/**
 * The cache key covers what determines the answer (model, messages, temperature, maxTokens) plus a discriminator.
 * The discriminator (by default the call key `<run>/<task>/<stage>/<round>`) is part of the key on purpose: two
 * identical prompts in different tasks or rounds are independent samples (temperature > 0, or the 912-task bench
 * repeating the same 20 tasks) and must each reach the model; only a retry or replay of the *same* call may reuse it.
 */
export function cacheKeyOf(request: ChatRequest, discriminator?: string): string {
  const { model, messages, temperature, maxTokens, topP, tools, toolChoice } = request;
  // topP/tools/toolChoice are undefined for plain chat, so those keys are unchanged from before they existed.
  const identity = {
    format: CACHE_FORMAT,
    model,
    messages,
    temperature,
    maxTokens,
    topP,
    tools,
    toolChoice,
    discriminator,
  };
  return createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

/** Content-addressed replies in a folder (the run's `llm-cache/`): one JSON file per key, written atomically. */
export class ResponseCache {
  constructor(readonly dir: string) {}

  pathOf(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /**
   * A stored reply, or undefined on a miss. The reply is `cached` (its cost carried by another call's result) unless
   * `payer` is the one that received it: then this is a retry of the call that paid for it, whose earlier attempt
   * ended (a kill -9, a failure) before its result, and with it the cost, reached its workflow. A corrupt entry (not
   * JSON, not a stored reply, or another key's reply) is a miss too, but never a silent one: it is reported on stderr
   * (the call will be made, and paid, again) and moved aside to `<key>.json.corrupt` for inspection, so the fresh
   * reply can take its place.
   */
  async get(key: string, payer?: string): Promise<ChatResponse | undefined> {
    const file = this.pathOf(key);
    try {
      const read = await readJsonFile(file, storedResponseSchema);
      if (read.kind === 'missing') return undefined;
      if (read.value.key !== key) throw new CorruptFileError(file, `holds the reply for key ${read.value.key}`);
      const paidHere = payer !== undefined && read.value.paidBy === payer;
      return { ...read.value.response, cached: !paidHere };
    } catch (err) {
      if (!(err instanceof CorruptFileError)) throw err;
      warnCorruptFile(err, `cache entry set aside as ${file}.corrupt; the model is asked (and paid) again`);
      await rename(file, `${file}.corrupt`).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e; // ENOENT: a parallel reader of the same entry set it aside first
      });
      return undefined;
    }
  }

  /**
   * Write to a unique temp file and rename: readers see either nothing or the whole entry. Synchronous on purpose:
   * a reply that has arrived is on disk before this call returns, in the same turn of the event loop, however busy
   * the loop or libuv's thread pool is (a kill -9 after it cannot make the reply be paid for again). A few hundred
   * microseconds for an entry of a few kB. `payer`: the call that received the reply (see get()).
   */
  put(key: string, response: ChatResponse, payer?: string): void {
    const file = this.pathOf(key);
    mkdirSync(path.dirname(file), { recursive: true });
    const { cached: _cached, priceFactor: _factor, ...stored } = response;
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const paidBy = payer === undefined ? {} : { paidBy: payer };
    writeFileSync(tmp, JSON.stringify({ format: CACHE_FORMAT, key, ...paidBy, response: stored }));
    renameSync(tmp, file);
  }
}

export interface CachedCompleteOptions extends CompleteOptions {
  /** Separates identical requests that must be answered separately; defaults to `callKey`. */
  discriminator?: string;
  /**
   * Who pays for a reply this call receives, the same in every attempt of the call: in an activity, its execution
   * (activities/llm/payer.ts). A reply found in the cache that this payer received is charged to this attempt (not
   * `cached`): the earlier attempt that received it never delivered its result, so no result carried its cost.
   * Without a payer every hit is `cached`.
   */
  payer?: string;
}

/**
 * Answers from the cache when this exact call already succeeded; otherwise calls the provider and stores the reply.
 * A reply's cost and tokens go together into exactly one delivered result: the first attempt's, or a retry's when that
 * attempt was lost after the reply arrived (see `payer`).
 */
export async function cachedComplete(
  provider: LlmProvider,
  cache: ResponseCache,
  request: ChatRequest,
  opts: CachedCompleteOptions = {},
): Promise<ChatResponse> {
  const key = cacheKeyOf(request, opts.discriminator ?? opts.callKey);
  const hit = (await cache.get(key, opts.payer)) ?? (await legacyHit(cache, request, opts));
  if (hit) return hit;
  const response = await provider.complete(request, { signal: opts.signal, callKey: opts.callKey });
  cache.put(key, response, opts.payer); // the very next thing after the reply: see put()
  return { ...response, cached: false };
}

/** A reply stored under the call key as an older release wrote it (lib/llm/callKey.ts): paid once, never again. */
async function legacyHit(
  cache: ResponseCache,
  request: ChatRequest,
  opts: CachedCompleteOptions,
): Promise<ChatResponse | undefined> {
  if (opts.discriminator !== undefined || opts.callKey === undefined) return undefined;
  for (const legacy of legacyCallKeys(opts.callKey)) {
    const hit = await cache.get(cacheKeyOf(request, legacy), opts.payer);
    if (hit) return hit;
  }
  return undefined;
}
