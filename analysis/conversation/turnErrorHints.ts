import { readTurnToolCalls } from './debugStore';
import type { DebugToolCall } from './debug';
import { turnQuestion } from './grounding';
import type { ConversationLayout } from './layout';
import { listWorkspaceFiles } from './workspaceFiles';

/**
 * What a failed python_execute call's error means given the turn so far, shown with the error (`hint`) when no error
 * pattern alone explains it (`errorHints.ts`). The 1.5B on suite a09 opened `items.json`, which nothing had saved (it
 * had not fetched the URL, or had called the web_fetch tool with `type: "json"`, which returns the body in its result
 * and saves no file), and ran the cells that needed it (NameError for `data`, `filtered_items`, `count`); told only
 * that it repeated itself, it sent the same calls twice more and the turn stopped.
 */

const MISSING_FILE = /FileNotFoundError: \[Errno 2\] No such file or directory: '([^']+)'/;
const UNDEFINED_NAME = /NameError: name '([A-Za-z_]\w*)' is not defined/;
const URL = /https?:\/\/[^\s'"<>)\]]+/g;
/** Workspace files named in a hint, at most. */
const LISTED_FILES = 10;

/** What the hint reads of the turn: the agent's earlier calls, the URLs of the question, the workspace's files. */
export interface TurnSoFar {
  earlier: DebugToolCall[];
  questionUrls: string[];
  files: string[];
}

/** The contextual hint for a failed python call of `agent` (not counting the call itself), or undefined. */
export async function turnErrorHint(
  layout: ConversationLayout,
  call: { turnId: string; agent: string; stepId: string; callId: string },
  error: string,
): Promise<string | undefined> {
  const missing = MISSING_FILE.exec(error)?.[1];
  const undefinedName = UNDEFINED_NAME.exec(error)?.[1];
  if (!missing && !undefinedName) return undefined;
  const earlier = (await readTurnToolCalls(layout, call.turnId, (agent) => agent === call.agent)).filter(
    (c) => !(c.stepId === call.stepId && c.callId === call.callId),
  );
  if (undefinedName) return undefinedNameHint(undefinedName, earlier);
  const questionUrls = [...(await turnQuestion(layout, call.turnId)).matchAll(URL)].map((m) =>
    m[0].replace(/[.,;:]+$/, ''),
  );
  const files = (await listWorkspaceFiles(layout.workspace, LISTED_FILES + 1)).map((f) => f.path);
  return missingFileHint(missing!, { earlier, questionUrls, files });
}

/**
 * A file the code opened that is not there: where a web_fetch of this turn saved what it downloaded, or that it saved
 * nothing (the body came back in its result), or that the question's URL was never downloaded; with the way to load it
 * in the same code run (a URL written in quotes in the code is downloaded for it).
 */
export function missingFileHint(file: string, turn: TurnSoFar): string | undefined {
  const fetches = turn.earlier.filter((c) => c.tool === 'web_fetch' && c.ok);
  const saved = fetches.flatMap((c) => {
    const path = (c.result as { file?: { path?: unknown } } | undefined)?.file?.path;
    return typeof path === 'string' ? [path] : [];
  });
  if (saved.length)
    return `there is no file ${file}: web_fetch saved what it downloaded as ${saved.join(', ')}. Open that path.`;
  const fetched = fetches.flatMap((c) => {
    const url = (c.result as { url?: unknown } | undefined)?.url ?? (c.args as { url?: unknown } | undefined)?.url;
    return typeof url === 'string' ? [url] : [];
  });
  const url = fetched.at(-1) ?? turn.questionUrls.at(-1);
  const where = `there is no file ${file} in the workspace (${filesText(turn.files)})`;
  if (!url) return `${where}: use one of its files, or download the data first.`;
  const why = fetched.length
    ? `the web_fetch tool returned the content of ${url} in its result and saved no file`
    : `${url} was not downloaded`;
  return `${where}: ${why}. In one code run, load it from the URL written in quotes (it is downloaded for your code): data = requests.get('${url}').json() (import requests), then compute and print the result from data.`;
}

/** A name an earlier failed python call of the agent was to define: that call never ran. */
export function undefinedNameHint(name: string, earlier: DebugToolCall[]): string | undefined {
  const defines = new RegExp(
    `(?:^|\\n)[ \\t]*(?:${name}[ \\t]*(?:,[^=\\n]*)?=(?!=)|for[ \\t]+${name}\\b|(?:def|class)[ \\t]+${name}\\b|[^\\n]*\\bas[ \\t]+${name}\\b)`,
  );
  const failed = earlier.some((c) => c.tool === 'python_execute' && !succeeded(c) && defines.test(codeOf(c)));
  if (!failed) return undefined;
  return `${name} is not defined because the earlier code that defines it failed (so it never ran), not because of this code: fix that error first. Better: put every step (load, compute, print) in one complete code run.`;
}

function filesText(files: string[]): string {
  if (!files.length) return 'it is empty';
  const shown = files.slice(0, LISTED_FILES).join(', ');
  return `its files: ${shown}${files.length > LISTED_FILES ? ', …' : ''}`;
}

function codeOf(call: DebugToolCall): string {
  const code = (call.args as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

function succeeded(call: DebugToolCall): boolean {
  return call.ok && (call.result as { success?: unknown } | undefined)?.success !== false;
}
