import { writeFileAtomic } from '../../lib/runStore/files';
import path from 'node:path';
import { appendEvents } from './eventLog';
import type { NewEvent } from './events';
import { correctnessNote } from '../grounding/correctnessNote';
import { disagreementNote, partialNote, readCrossCheck, secondProgramAnswer } from './crossCheck';
import { checkTurnAnswer, groundingRecord, shownAnswer, turnQuestion } from './grounding';
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
    let { said: shown, checked } = await shownAnswer(layout, input.turnId, said, Boolean(options.answerFromResult));
    const crossCheck = await readCrossCheck(layout, input.turnId, input.answer);
    const second = crossCheck && secondProgramAnswer(crossCheck);
    if (second) {
      // The first program did the wrong operation and the second did not: the second's result is the answer.
      shown = second;
      checked = await checkTurnAnswer(layout, input.turnId, shown, () => true);
    }
    said = shown;
    const grounding = { answerOffset, ...checked.grounding };
    // A check that still fails after the turn's one revision is shown under the answer (after it: offsets unchanged).
    const confirmed = crossCheck?.verdict === 'agree';
    const wrong =
      said && grounding.total && !second
        ? correctnessNote(checked.correctness, grounding, confirmed, await turnQuestion(layout, input.turnId))
        : undefined;
    const disagrees = crossCheck && disagreementNote(crossCheck, Boolean(wrong));
    // Right numbers but not all of them: the values the second program computed are shown under the answer.
    const partial = crossCheck && partialNote(crossCheck);
    const note = [wrong, disagrees, partial].filter(Boolean).join('\n\n');
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
