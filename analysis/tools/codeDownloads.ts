import { ToolRefusal, type ToolContext } from './types';
import { webFetchArgs, webFetchTool } from './webFetch';

/**
 * Downloads for code that reaches for the network itself. python_execute has no network, and the embedded models fetch
 * inside Python anyway (`requests.get(url)`, `pd.read_json(url)`) whatever the tool description says: on the analysis
 * suite's download requests every run failed on a refused connection until the turn gave up. So the URLs written in
 * the code are fetched first by web_fetch, under its policy (refused addresses, per-host rate, size and workspace
 * limits), saved under downloads/, and the kernel serves those exact URLs from the saved files (`requests` GETs,
 * `urllib.request.urlopen`, so pandas' readers too). Any other URL, and a refused one, still finds no network.
 */

/** URLs fetched for one call at most: code listing more is not a download of its data. */
export const MAX_CODE_DOWNLOADS = 3;

/** A quoted URL, the quotes possibly escaped (code run wrapped in a string literal: the cross-check's second program). */
const URL_IN_QUOTES = /(\\?["'])(https?:\/\/[^\s"'\\]+)\1/g;

export interface CodeDownload {
  url: string;
  /** Where the body was saved (workspace-relative), when the fetch succeeded. */
  file?: string;
  /** Why it was not fetched (the web_fetch policy's refusal or the failure). */
  error?: string;
}

/** The distinct http(s) URLs the code writes as string literals, in order, at most MAX_CODE_DOWNLOADS. */
export function urlsInCode(code: string): string[] {
  const urls = [...code.matchAll(URL_IN_QUOTES)].map((m) => m[2]);
  return [...new Set(urls)].slice(0, MAX_CODE_DOWNLOADS);
}

/** Fetches each URL of the code with web_fetch (type file); a refusal or failure is recorded, never thrown. */
export async function fetchForCode(code: string, ctx: ToolContext): Promise<CodeDownload[]> {
  const downloads: CodeDownload[] = [];
  for (const url of urlsInCode(code)) {
    try {
      const fetched = await webFetchTool.run(webFetchArgs.parse({ url, type: 'file' }), ctx);
      downloads.push(fetched.file ? { url, file: fetched.file.path } : { url, error: 'nothing saved' });
    } catch (err) {
      if (ctx.signal?.aborted) throw err;
      if (!(err instanceof ToolRefusal) && !(err instanceof Error)) throw err;
      downloads.push({ url, error: err.message });
    }
  }
  return downloads;
}

/** What the model is told: these URLs were fetched by web_fetch and served to its code from the saved files. */
export function codeDownloadsNote(downloads: CodeDownload[]): string | undefined {
  const saved = downloads.filter((d) => d.file);
  const refused = downloads.filter((d) => d.error);
  const parts = [
    saved.length
      ? `Python has no network: ${saved.map((d) => `${d.url} was fetched with web_fetch into ${d.file}`).join('; ')}, and the code's requests for it were served from that file (read the file directly next time).`
      : '',
    ...refused.map((d) => `${d.url} could not be fetched for the code: ${d.error}`),
  ];
  return parts.filter(Boolean).join(' ') || undefined;
}

/** The URL → saved file map the kernel serves during this call. */
export function servedDownloads(downloads: CodeDownload[]): Record<string, string> {
  return Object.fromEntries(downloads.filter((d) => d.file).map((d) => [d.url, d.file!]));
}
