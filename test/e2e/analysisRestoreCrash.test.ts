import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_PROGRAM_AGENT } from '../../analysis/conversation/crossCheckPrompts';
import { ConversationService } from '../../client/conversations';
import type { ConversationEvent } from '../../analysis/conversation/events';
import { conversationDir, conversationLayout } from '../../analysis/conversation/layout';
import { duplicatesAnsweredApartFromKills } from '../../lib/scriptedLlm';
import { startE2E, workerProcessEnv, type E2EEnv, FAST_FAILOVER } from '../helpers/e2e';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';
import { kernelProcesses } from '../helpers/sandboxProcesses';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, workerKillTimes, type WorkerProcess } from '../helpers/workerProcess';

/**
 * Restoring is an activity like any other: the worker is killed (kill -9) after the first turn (its kernel is lost),
 * and the next worker is killed again while the second turn's python_execute is re-running the first turn's slow cell.
 * A third worker restores and finishes the turn; no model call is answered twice.
 */
describe('a crash during a restore', () => {
  let env: E2EEnv;
  let worker: WorkerProcess;
  let service: ConversationService;
  let second: ConversationEvent[] = [];
  let resultsAtCrash = -1;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-conv-'));
    env = await startE2E(
      { rules: [], fallback: salesAnalyst },
      { config: { ...FAST_FAILOVER, recalc: { engine: 'none' }, conversation: { dir } } },
    );
    service = new ConversationService({ client: env.client, config: env.config });
    const spawnReady = async () => {
      const w = spawnWorker(workerProcessEnv(env));
      await w.ready;
      return w;
    };
    worker = await spawnReady();
    const conv = await service.create({ pattern: 'react' });
    const workspace = conversationLayout(conversationDir(service.root, conv.id)).workspace;
    await service.upload(conv.id, [{ name: 'sales.csv', data: Buffer.from(SALES_CSV) }]);
    const ended = (turnId: string) => async () =>
      (await service.events(conv.id)).some((e) => e.type === 'turn_ended' && e.turnId === turnId);
    const one = await service.send(conv.id, { text: 'What is the total amount in sales.csv? [SLOWSETUP]' });
    await waitUntil(ended(one.turnId), 180_000, 'the first turn to end');
    worker.crash(); // worker restart: the kernel holding `total` is gone
    await worker.exited;
    worker = await spawnReady();
    const two = await service.send(conv.id, { text: 'Now double it. [USEVAR]' });
    // The second turn's python_execute starts a kernel and re-runs the first turn's cell (8 s of sleep): crash inside it.
    await waitUntil(() => kernelProcesses(workspace).length > 0, 120_000, "the second turn's kernel to start");
    await new Promise((r) => setTimeout(r, 3_000));
    resultsAtCrash = (await service.events(conv.id)).filter(
      (e) => e.turnId === two.turnId && e.type === 'tool_result',
    ).length;
    worker.crash();
    await worker.exited;
    worker = await spawnReady();
    await waitUntil(ended(two.turnId), 240_000, 'the second turn to end');
    second = (await service.events(conv.id)).filter((e) => e.turnId === two.turnId);
  }, 600_000);
  afterAll(async () => {
    worker?.crash();
    await env?.close();
  });

  it('the crash hit the restore, and the next worker restored and finished the turn', () => {
    expect(resultsAtCrash).toBe(0);
    // The analysis's results (the cross-check's second program, which runs after the answer, left out).
    const checks = new Set(
      second.filter((e) => e.type === 'code' && e.data.agent === SECOND_PROGRAM_AGENT).map((e) => e.data.callId),
    );
    const results = second.filter((e) => e.type === 'tool_result' && !checks.has(e.data.callId)).map((e) => e.data);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: true, stdout: '94\n', restored: { cells: 1, turns: ['t1'] } });
    expect(second.at(-1)!.data.status).toBe('completed');
    expect(String(second.find((e) => e.type === 'answer')!.data.text)).toContain('**94**');
  });

  it("paid for no model call twice: the code and the answer per turn, and the cross-check's second programs", () => {
    expect(duplicatesAnsweredApartFromKills(env.llm.log, workerKillTimes())).toEqual([]);
    // Turn 1: code, answer, second program. Turn 2: code, answer, and a second program whose use of `total` fails in
    // its own namespace (the analysis's variables are not there), then its fix.
    expect(env.llm.log.filter((e) => e.answered)).toHaveLength(7);
  });
});
