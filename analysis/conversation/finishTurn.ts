import { writeFileAtomic } from '../../lib/runStore/files';
import path from 'node:path';
import { appendEvents } from './eventLog';
import type { NewEvent } from './events';
import { computedAnswer } from '../grounding/computedAnswer';
import { correctnessNote } from '../grounding/correctnessNote';
import { checkTurnAnswer, groundingRecord } from './grounding';
import { conversationLayout } from './layout';
import type { FinishTurnInput } from './steps';
import { readMessage, transcriptDir } from './transcript';

export interface FinishTurnOptions {
  /**
   * An answer whose numbers its code did not compute is rebuilt from the computed result (`computedAnswer`): for models
   * speaking the text protocol (the embedded ones), which retype results wrongly. Off for providers with real tool
   * calling, whose answer stays the model's own, checked and noted.
   */
  answerFromResult?: boolean;
}

/** Closes a turn in the event log: its answer (read from the transcript) and its grounding, its usage and its end. */
export async function finishTurn(input: FinishTurnInput, options: FinishTurnOptions = {}): Promise<void> {
  const layout = conversationLayout(input.dir);
  const base = { turnId: input.turnId };
  const events: NewEvent[] = [];
  if (input.answer) {
    const reply = await readMessage(transcriptDir(layout, input.turnId, input.answer.agent), input.answer.index);
    let said = reply?.content.trim() ?? '';
    // The model's own text is checked; a note the system put before it is not the model's claim.
    const answerOffset = said && input.answer.prefix ? input.answer.prefix.length + 2 : 0;
    let checked = await checkTurnAnswer(layout, input.turnId, said);
    const rebuilt = options.answerFromResult ? computedAnswer(said, checked.correctness, checked.grounding) : undefined;
    if (rebuilt) {
      said = rebuilt.text;
      checked = await checkTurnAnswer(layout, input.turnId, said);
    }
    const grounding = { answerOffset, ...checked.grounding };
    // A check that still fails after the turn's one revision is shown under the answer (after it: offsets unchanged).
    const note = said && grounding.total ? correctnessNote(checked.correctness, grounding) : undefined;
    const text = [input.answer.prefix, said, note].filter(Boolean).join('\n\n') || '(the model gave no answer text)';
    await writeFileAtomic(path.join(layout.turns, input.turnId, 'answer.md'), text);
    events.push({ ...base, type: 'answer', key: `${input.turnId}:answer`, data: { text } });
    events.push(await groundingRecord(layout, input.turnId, grounding));
  }
  if (input.error)
    events.push({
      ...base,
      type: 'error',
      key: `${input.turnId}:error`,
      data: { message: input.error, where: input.errorWhere ?? 'workflow' },
    });
  events.push({ ...base, type: 'usage', key: `${input.turnId}:usage`, data: input.usage });
  events.push({
    ...base,
    type: 'turn_ended',
    key: `${input.turnId}:ended`,
    data: { status: input.status, ...(input.error ? { error: input.error } : {}) },
  });
  await appendEvents(layout, events);
}
