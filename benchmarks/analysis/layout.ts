import { createHash } from 'node:crypto';
import path from 'node:path';
import { CONVERSATION_ID } from '../../analysis/conversation/layout';

/**
 * A request's conversation is named after the task workflow that runs it: a retried or resumed task workflow (same id)
 * finds its conversation again, a `retry --failed` attempt (another id) gets a fresh one.
 */
export function requestConversationId(taskWorkflowId: string): string {
  const safe = taskWorkflowId.replace(/[^A-Za-z0-9_-]/g, '_');
  if (CONVERSATION_ID.test(safe)) return safe;
  return `${safe.slice(0, 47)}-${createHash('sha256').update(taskWorkflowId).digest('hex').slice(0, 16)}`;
}

/** Conversation folders of a run (event log, transcripts, workspace), one per request attempt. */
export function conversationsDir(runDir: string): string {
  return path.join(runDir, 'conversations');
}
