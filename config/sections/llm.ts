import { z } from 'zod';

export const priceSchema = z.strictObject({
  inputPerMTok: z.number().nonnegative().describe('USD per million input (prompt) tokens.'),
  outputPerMTok: z.number().nonnegative().describe('USD per million output (reply) tokens.'),
  cachedInputPerMTok: z
    .number()
    .nonnegative()
    .optional()
    .describe("USD per million input tokens read from the provider's prompt cache; unset: the input rate."),
  reasoningPerMTok: z
    .number()
    .nonnegative()
    .optional()
    .describe('USD per million reasoning tokens (part of the output); unset: the output rate.'),
  batchFactor: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('The fraction of this price a batch request (`run --batch`) costs; unset: `llm.batch.priceFactor`.'),
});

export const batchConfigSchema = z
  .strictObject({
    priceFactor: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe(
        'The fraction of the regular price a batch request costs (OpenAI, Anthropic, Google and Together bill batches ' +
          'at half price; the price library has no batch rates). `llm.prices.<model>.batchFactor` overrides it per model.',
      ),
    maxRequests: z
      .number()
      .int()
      .positive()
      .max(50_000)
      .default(1_000)
      .describe("Most requests in one batch (OpenAI's limit is 50,000); a full batch is sent at once."),
    windowMs: z
      .number()
      .int()
      .positive()
      .default(30_000)
      .describe(
        'How long requests are collected, from the first one waiting, before a batch that is not full is sent.',
      ),
    pollIntervalMs: z
      .number()
      .int()
      .positive()
      .default(30_000)
      .describe("How often a batch's status is asked for (a durable timer between polls)."),
  })
  .describe(
    '`run --batch`: model calls of many tasks sent through the OpenAI-compatible files + batches API, each batch a ' +
      'workflow; a call its batch does not answer (a failed, missing or expired line, a rejected batch) is asked again ' +
      'as a single request at the regular price.',
  );

export const sharedLimitsConfigSchema = z
  .strictObject({
    name: z
      .string()
      .optional()
      .describe("The limiter's name (workflow `llm-rate-limit/<name>`); default: the base URL's host."),
    requestsPerMinute: z.number().int().positive().optional().describe('Requests per minute, all hosts together.'),
    tokensPerMinute: z.number().int().positive().optional().describe('Tokens per minute, all hosts together.'),
    maxConcurrent: z.number().int().positive().optional().describe('Requests in flight at once, all hosts together.'),
    windowMs: z
      .number()
      .int()
      .positive()
      .default(60_000)
      .describe('The sliding window of the per-minute limits (tests shorten it).'),
  })
  .describe(
    'Limits shared by every worker on every host, held by a Temporal workflow per provider. Unset: no ' +
      'cross-host limit.',
  );

const FAILURE_CLASSES = ['rate_limit', 'provider_5xx', 'timeout', 'connection', 'malformed_reply'] as const;

export const llmConfigSchema = z
  .strictObject({
    provider: z
      .enum(['openai', 'local'])
      .default('openai')
      .describe(
        '`openai`: any OpenAI-compatible endpoint; `local`: an embedded GGUF model through node-llama-cpp ' +
          '(also used whenever there is no baseUrl).',
      ),
    baseUrl: z
      .string()
      .optional()
      .describe('The OpenAI-compatible endpoint, e.g. https://api.openai.com/v1. Env OPENAI_BASE_URL.'),
    apiKey: z
      .string()
      .optional()
      .describe("The endpoint's key. Env OPENAI_API_KEY (preferred); never written to run folders, memos or payloads."),
    model: z
      .string()
      .default('local-qwen2.5-coder-1.5b')
      .describe(
        'Model name; without an endpoint an embedded model of lib/llm/localModels.json. Env ' +
          'SHEETBENCH_MODEL, flag --model.',
      ),
    temperature: z.number().min(0).max(2).optional().describe("Sampling temperature; unset: the endpoint's default."),
    maxTokens: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Most tokens a reply may have; unset: the endpoint's default (1,024 for the embedded models)."),
    reasoningEffort: z
      .enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh'])
      .optional()
      .describe(
        '`reasoning_effort` sent to reasoning models (OpenAI o-series and GPT-5.x, and endpoints that accept it); ' +
          'unset: not sent.',
      ),
    modelCapabilities: z
      .record(
        z.string(),
        z.strictObject({
          maxTokensField: z
            .enum(['max_tokens', 'max_completion_tokens'])
            .optional()
            .describe('The request field that carries `maxTokens`.'),
          sampling: z
            .boolean()
            .optional()
            .describe('false: only the default temperature/top_p is accepted, so they are left out.'),
        }),
      )
      .default({})
      .describe(
        'Per model name, what the model accepts where models differ, over the built-in table of ' +
          'lib/llm/modelCapabilities.ts. A model outside the table that refuses one of these fields (a 400 ' +
          '`unsupported_parameter`/`unsupported_value`) is retried once without it.',
      ),
    requestTimeoutMs: z.number().int().positive().default(120_000).describe("One model request's time limit."),
    localModelPath: z
      .string()
      .optional()
      .describe('A GGUF file for the local provider (default: the embedded model `model` names, installed by set-up).'),
    prices: z
      .record(z.string(), priceSchema)
      .default({})
      .describe(
        'USD per million tokens, per model name, overriding the price library (@pydantic/genai-prices, bundled). A ' +
          'model neither prices is refused by a run with a dollar budget and reported as of unknown cost otherwise.',
      ),
    contextWindows: z
      .record(z.string(), z.number().int().positive())
      .default({})
      .describe(
        'Context window (tokens) per model name, over the table in lib/llm/contextWindows.ts; the key `*` ' +
          'sets it for every model neither lists (default 128,000).',
      ),
    maxRetryAfterMs: z
      .number()
      .int()
      .positive()
      .default(60_000)
      .describe("Longest wait a provider's Retry-After may impose before a retry."),
    maxConcurrentRequests: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Requests in flight at once, shared by every worker process on this host using the same rateLimitDir.'),
    tokensPerMinute: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Tokens per minute, shared by every worker process on this host using the same rateLimitDir.'),
    rateLimitDir: z
      .string()
      .default('.state/rate-limit')
      .describe("Folder of the per-host limiter's files (one limiter per provider/key)."),
    sharedLimits: sharedLimitsConfigSchema.optional(),
    batch: batchConfigSchema.default(batchConfigSchema.parse({})),
    retryLimits: z
      .partialRecord(z.enum(FAILURE_CLASSES), z.number().int().positive())
      .default({ rate_limit: 10, provider_5xx: 4, timeout: 4, connection: 4, malformed_reply: 2 })
      .describe(
        'Failures of one class a call may have before it stops; classes not listed are bounded by the ' +
          "activity's retry policy.",
      ),
  })
  .describe('The model: endpoint, sampling, prices, context windows, rate limits and retries.');
