import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationService } from '../../client/conversations';
import type { ConversationEvent } from '../../analysis/conversation/events';
import { duplicatesAnsweredApartFromKills } from '../../lib/scriptedLlm';
import { startE2E, workerProcessEnv, type E2EEnv, FAST_FAILOVER } from '../helpers/e2e';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, workerKillTimes, type WorkerProcess } from '../helpers/workerProcess';

/** kill -9 of the worker (and its sandboxes) in the middle of a turn: a new worker finishes it, no model call paid twice. */
describe('a conversation turn survives its worker being killed', () => {
  let env: E2EEnv;
  let worker: WorkerProcess;
  let events: ConversationEvent[] = [];
  let answeredAtCrash = 0;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-conv-'));
    env = await startE2E(
      { rules: [], fallback: salesAnalyst, latencyMs: 1_500 },
      { config: { ...FAST_FAILOVER, recalc: { engine: 'none' }, conversation: { dir } } },
    );
    const service = new ConversationService({ client: env.client, config: env.config });
    worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    const conv = await service.create({ pattern: 'react' });
    await service.upload(conv.id, [{ name: 'sales.csv', data: Buffer.from(SALES_CSV) }]);
    const { turnId } = await service.send(conv.id, { text: 'What is the total amount in sales.csv? [FAILFIRST]' });
    const answered = () => env.llm.log.filter((e) => e.answered).length;
    await waitUntil(() => answered() >= 2, 120_000, 'two answered model calls');
    await new Promise((r) => setTimeout(r, 700));
    worker.crash();
    await worker.exited;
    answeredAtCrash = answered();
    worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    await waitUntil(
      async () => (events = await service.events(conv.id)).some((e) => e.type === 'turn_ended' && e.turnId === turnId),
      240_000,
      'the turn to end',
    );
  }, 400_000);
  afterAll(async () => {
    worker?.crash();
    await env?.close();
  });

  it('finishes the turn with the right answer after the crash', () => {
    expect(answeredAtCrash).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)!.data.status).toBe('completed');
    expect(String(events.find((e) => e.type === 'answer')?.data.text)).toContain('**47**');
  });

  it('never had a model call answered twice, and the event log has no duplicates', () => {
    expect(duplicatesAnsweredApartFromKills(env.llm.log, workerKillTimes())).toEqual([]);
    // The failing code, its fix, the answer; then the cross-check's second program, whose first code fails too ([FAILFIRST]), and its fix.
    expect(env.llm.log.filter((e) => e.answered)).toHaveLength(5);
    const keys = events.map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });
});
