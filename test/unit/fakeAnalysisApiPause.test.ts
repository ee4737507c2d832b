/**
 * The fake conversation API's pauses (test/helpers/fakeAnalysisApi.ts, the browser tests' test double): a test that
 * releases a turn before the turn reached its pause must not leave it waiting forever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAnalysisApi, type ScriptEntry } from '../helpers/fakeAnalysisApi';

/** A step, a pause, a step: the first event waits `firstDelayMs`, so a release can come before the pause. */
const script = (firstDelayMs: number): ScriptEntry[] => [
  { type: 'step', data: { stepId: 's1', kind: 'think', text: 'one' }, delayMs: firstDelayMs },
  { pause: true },
  { type: 'step', data: { stepId: 's2', kind: 'think', text: 'two' }, delayMs: 1 },
];

describe('fake analysis API: a pause and its release', () => {
  let firstDelayMs = 0;
  const fake = new FakeAnalysisApi({ script: () => Promise.resolve(script(firstDelayMs)) });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  async function startTurn(): Promise<string> {
    const { id } = await fake.createConversation();
    const res = await fetch(`${fake.url}/api/conversations/${id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'go' }),
    });
    expect(res.status).toBe(202);
    return id;
  }

  const eventTypes = (id: string) => fake.conversations.get(id)!.events.map((e) => e.type);
  const ended = (id: string) => expect.poll(() => eventTypes(id), { timeout: 5_000 }).toContain('turn_ended');

  it('a release given while the turn still plays the events before its pause: the pause is skipped', async () => {
    firstDelayMs = 200;
    const id = await startTurn();
    expect(fake.conversations.get(id)!.running?.release).toBeUndefined(); // not at the pause yet
    fake.release(id);
    await ended(id);
    expect(eventTypes(id)).toEqual(['turn_started', 'step', 'step', 'turn_ended']);
  });

  it('a release given at the pause lets the turn go on; until then it waits', async () => {
    firstDelayMs = 0;
    const id = await startTurn();
    await expect.poll(() => fake.conversations.get(id)!.running?.release, { timeout: 5_000 }).toBeDefined();
    await new Promise((r) => setTimeout(r, 100));
    expect(eventTypes(id)).toEqual(['turn_started', 'step']); // held at the pause
    fake.release(id);
    await ended(id);
    expect(eventTypes(id)).toEqual(['turn_started', 'step', 'step', 'turn_ended']);
  });
});
