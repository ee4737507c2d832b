import { z } from 'zod';

/**
 * tasks/<key>/executions/<label>.json as the task page reads it back, maybe from a run of another version: an object;
 * each field the page shows is taken only when it has the expected type (older records lack some).
 */
export const executionRecordSchema = z.record(z.string(), z.unknown());

/** tasks/<key>/conversations/<name>.json: the messages of one conversation, loose (providers add their own fields). */
export const conversationRecordSchema = z.array(
  z.looseObject({ role: z.string(), content: z.unknown(), reasoning: z.unknown().optional() }),
);
