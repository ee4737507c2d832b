import path from 'node:path';

/** Where a conversation's artifacts live: everything large stays here and travels by path, never in payloads. */
export interface ConversationLayout {
  dir: string;
  /** The user's and the tools' files: the only folder the sandbox may write. */
  workspace: string;
  info: string;
  events: string;
  eventsLock: string;
  /** Model transcripts: `turns/<turnId>/<agent>/<NNNN>.json`, one message per file. */
  turns: string;
  debug: string;
  llmCache: string;
  /** The user's uploads as uploaded (the workspace copy may be changed by code): what an export ships as its inputs. */
  inputs: string;
}

export function conversationLayout(dir: string): ConversationLayout {
  return {
    dir,
    workspace: path.join(dir, 'workspace'),
    info: path.join(dir, 'conversation.json'),
    events: path.join(dir, 'events.jsonl'),
    eventsLock: path.join(dir, 'events.lock'),
    turns: path.join(dir, 'turns'),
    debug: path.join(dir, 'debug'),
    llmCache: path.join(dir, 'llm-cache'),
    inputs: path.join(dir, 'inputs'),
  };
}

/** Conversation ids name folders and workflow ids: a safe alphabet only. */
export const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function conversationDir(root: string, id: string): string {
  if (!CONVERSATION_ID.test(id)) throw new Error(`invalid conversation id ${JSON.stringify(id)}`);
  return path.join(path.resolve(root), id);
}

export function conversationWorkflowId(id: string): string {
  return `conv-${id}`;
}
