import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { ConversationService } from '../../client/conversations';
import { appendEvents } from '../../analysis/conversation/eventLog';
import { conversationDir, conversationLayout } from '../../analysis/conversation/layout';
import { ConversationError } from '../../analysis/conversation/errors';
import { loadConfig } from '../../config/load';

/** A Temporal client whose conversation workflow refuses `busyTimes` sends as busy with turn t1, then accepts. */
function fakeClient(busyTimes: number) {
  const calls = { updates: 0 };
  const client = {
    workflow: {
      start: async () => undefined,
      getHandle: () => ({
        executeUpdate: async () => {
          calls.updates++;
          if (calls.updates <= busyTimes) {
            throw new WorkflowUpdateFailedError(
              'update failed',
              new Error('turn t1 is still running: wait for it to end or cancel it'),
            );
          }
          return { turnId: 't2' };
        },
      }),
    },
  } as unknown as Client;
  return { client, calls };
}

async function serviceWith(busyTimes: number, catchUpMs: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-send-'));
  const config = loadConfig({ conversation: { dir } }, {});
  const { client, calls } = fakeClient(busyTimes);
  const service = new ConversationService({ client, config, catchUpMs });
  const conv = await service.create({ pattern: 'react' });
  const layout = conversationLayout(conversationDir(service.root, conv.id));
  return { service, calls, conv, layout };
}

describe('ConversationService.send while the workflow catches up with a turn that ended', () => {
  it('retries a stale "still running" refusal when the log already holds the turn\'s end', async () => {
    const { service, calls, conv, layout } = await serviceWith(3, 10_000);
    await appendEvents(layout, [{ type: 'turn_ended', turnId: 't1', key: 't1:ended', data: { status: 'completed' } }]);
    expect(await service.send(conv.id, { text: 'next' })).toEqual({ turnId: 't2' });
    expect(calls.updates).toBe(4);
  });

  it('refuses at once as busy when the turn has not ended', async () => {
    const { service, calls, conv } = await serviceWith(3, 10_000);
    const err = await service.send(conv.id, { text: 'next' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConversationError);
    expect(err).toMatchObject({ kind: 'busy' });
    expect(calls.updates).toBe(1);
  });

  it('gives up as busy when the workflow does not catch up within the window', async () => {
    const { service, calls, conv, layout } = await serviceWith(1_000, 1_200);
    await appendEvents(layout, [{ type: 'turn_ended', turnId: 't1', key: 't1:ended', data: { status: 'completed' } }]);
    const err = await service.send(conv.id, { text: 'next' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'busy' });
    expect(calls.updates).toBeGreaterThan(1);
    expect(calls.updates).toBeLessThan(10);
  });
});

describe('a new conversation folder', () => {
  it('is private to its user (mode 700): another local user can neither list its files nor read them', async () => {
    const { service, conv } = await serviceWith(0, 10_000);
    expect(statSync(conversationDir(service.root, conv.id)).mode & 0o777).toBe(0o700);
  });
});
