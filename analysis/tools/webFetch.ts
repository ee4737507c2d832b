import { dirname, posix } from 'node:path';
import { convert } from 'html-to-text';
import { z } from 'zod';
import { safeFetch, type FetchedBody } from '../web/safeFetch';
import { describeFile } from '../workspace/files';
import { handToSandbox, mkdirForSandbox } from '../workspace/ownership';
import { checkRelativePath, resolveInWorkspace } from '../workspace/paths';
import { formatBytes, roomLeft } from '../workspace/quota';
import { writeInWorkspace } from '../workspace/safeFiles';
import { clip } from './executionReport';
import { ToolRefusal, type AnalysisTool, type ToolContext, type WorkspaceFile } from './types';

export const webFetchArgs = z.object({
  url: z.string().min(1).describe('An http:// or https:// URL'),
  type: z
    .enum(['html', 'json', 'text', 'file'])
    .default('text')
    .describe(
      'html: readable text of a page; json: parsed JSON; text: raw text; file: save the body into the workspace',
    ),
  filename: z
    .string()
    .optional()
    .describe('For type "file": workspace-relative name to save as (default: derived from the URL, under downloads/)'),
});
type WebFetchArgs = z.infer<typeof webFetchArgs>;

export interface WebFetchResult {
  url: string;
  /** The URL after redirects. */
  finalUrl: string;
  status: number;
  contentType: string;
  bytes: number;
  /** html/text: the text; json: the parsed value (text cut to the configured size when too big). */
  content?: unknown;
  truncated?: boolean;
  /** type "file": where the body was saved. */
  file?: WorkspaceFile;
}

export const webFetchTool: AnalysisTool<WebFetchArgs, WebFetchResult> = {
  name: 'web_fetch',
  description:
    'Fetches a public http(s) URL from the worker (the only way to the network; python_execute has none). type "file" saves the body in the ' +
    'workspace (e.g. a CSV to load with pandas), "json" returns parsed JSON, "html" readable page text, "text" the raw text. ' +
    'Private, loopback and link-local addresses are refused; downloads are capped in size and rate-limited per host.',
  args: webFetchArgs,
  async run(args, ctx) {
    const { maxBytes, limitName } = await downloadLimit(args, ctx);
    const fetched = await safeFetch(args.url, {
      config: ctx.config.fetch,
      maxBytes,
      limitName,
      lookupHost: ctx.lookupHost,
      signal: ctx.signal,
    });
    if (fetched.status >= 400) {
      throw new ToolRefusal(
        `${fetched.finalUrl} answered HTTP ${fetched.status}: ${fetched.body.subarray(0, 300).toString('utf8').replace(/\s+/g, ' ').trim()}`,
      );
    }
    const base = {
      url: fetched.url,
      finalUrl: fetched.finalUrl,
      status: fetched.status,
      contentType: fetched.contentType,
      bytes: fetched.body.length,
    };
    if (args.type === 'file') return { ...base, file: await saveDownload(fetched, args.filename, ctx) };
    return { ...base, ...readable(fetched, args.type, ctx.config.maxReturnChars) };
  },
};

/** A download may use the configured cap, or less when the workspace has less room left. */
async function downloadLimit(args: WebFetchArgs, ctx: ToolContext): Promise<{ maxBytes: number; limitName: string }> {
  const cap = ctx.config.downloadMaxBytes;
  if (args.type !== 'file') return { maxBytes: cap, limitName: `the ${formatBytes(cap)} download limit` };
  const room = await roomLeft(ctx.workspaceDir, ctx.config.workspaceMaxBytes);
  if (room >= cap) return { maxBytes: cap, limitName: `the ${formatBytes(cap)} download limit` };
  return {
    maxBytes: room,
    limitName: `the ${formatBytes(room)} left in the workspace (limit ${formatBytes(ctx.config.workspaceMaxBytes)}; delete files to make room)`,
  };
}

function readable(
  fetched: FetchedBody,
  type: 'html' | 'json' | 'text',
  maxChars: number,
): { content: unknown; truncated: boolean } {
  const text = fetched.body.toString('utf8');
  if (type === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new ToolRefusal(
        `${fetched.finalUrl} did not return valid JSON (${(err as Error).message}); content-type ${fetched.contentType || 'unknown'}. Try type "text".`,
      );
    }
    if (text.length <= maxChars) return { content: value, truncated: false };
    const [cut] = clip(text, maxChars);
    return {
      content: `${cut}\n[JSON too large to show whole: fetch it with type "file" and load it in python_execute]`,
      truncated: true,
    };
  }
  const body =
    type === 'html'
      ? convert(text, {
          wordwrap: false,
          selectors: [
            { selector: 'img', format: 'skip' },
            { selector: 'a', options: { ignoreHref: true } },
          ],
        })
      : text;
  const [content, truncated] = clip(body, maxChars);
  return { content, truncated };
}

async function saveDownload(
  fetched: FetchedBody,
  filename: string | undefined,
  ctx: ToolContext,
): Promise<WorkspaceFile> {
  const rel = checkRelativePath(filename ?? `downloads/${defaultName(fetched.finalUrl)}`);
  if (!rel) throw new ToolRefusal('filename must name a file');
  const host = await resolveInWorkspace(ctx.workspaceDir, rel);
  await mkdirForSandbox(ctx.workspaceDir, dirname(host));
  await handToSandbox(await writeInWorkspace(ctx.workspaceDir, rel, fetched.body));
  return describeFile(rel, fetched.body.length);
}

function defaultName(url: string): string {
  const last = posix.basename(new URL(url).pathname);
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // keep the raw segment
  }
  const safe = decoded.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return safe || 'download';
}
