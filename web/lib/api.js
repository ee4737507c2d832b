// The analysis API (api-contract.md) from the browser. Every failure becomes an ApiError whose message names the cause,
// so the view that made the call can show it where it happened.
/** @import { ExportFormat } from '../../analysis/export' */

export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status the reply's HTTP status; 0 when the server could not be reached
   */
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** Fired when the server answers 401: the app shows the sign-in page (the session ended or was revoked). */
export const SIGNED_OUT = 'sheetbench:signed-out';

/** The message of anything thrown (an ApiError, another Error, or a value). */
export const errorText = (/** @type {unknown} */ err) => (err instanceof Error ? err.message : String(err));

/** The `error` field of a reply's JSON, when it has one. */
const errorField = (/** @type {unknown} */ json) =>
  json && typeof json === 'object' && 'error' in json && typeof json.error === 'string' ? json.error : undefined;

/**
 * Calls the API. The reply's JSON (undefined for 204) is `unknown` here: each caller names what the route answers with
 * the server's own reply type (`@type` of the call, e.g. `ConversationView`), which `tsc -p web` checks its uses against.
 * @param {'GET' | 'POST' | 'PATCH' | 'DELETE'} method
 * @param {string} path
 * @param {unknown} [body] JSON, or a FormData of uploads
 * @returns {Promise<unknown>}
 */
export async function api(method, path, body) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: {} };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) init.body = JSON.stringify(body);
  // The server takes only JSON bodies on state-changing routes (a cross-site form cannot send one without CORS).
  if (method !== 'GET' && !(body instanceof FormData)) init.headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError('the server cannot be reached (is `sheetbench serve` running?)', 0);
  }
  if (res.status === 204) return undefined;
  const text = await res.text();
  /** @type {unknown} */
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.status === 401 && path !== '/api/session')
    dispatchEvent(new CustomEvent(SIGNED_OUT, { detail: errorField(json) }));
  if (!res.ok) throw new ApiError(errorField(json) ?? `${method} ${path} failed: HTTP ${res.status}`, res.status);
  return json;
}

export const conv = (/** @type {string} */ id) => `/api/conversations/${encodeURIComponent(id)}`;

/** The API base of what someone shared with me: `/api/shared/<token>` (read-only, same sub-paths as a conversation). */
export const shared = (/** @type {string} */ token) => `/api/shared/${encodeURIComponent(token)}`;

/**
 * URL of a conversation file (workspace-relative path); inline for images. `id` is a conversation id, or a share's API base.
 * @param {string} id
 * @param {string} path
 */
export function fileUrl(id, path, inline = false) {
  const base = id.startsWith('/api/') ? id : conv(id);
  return `${base}/files/${path.split('/').map(encodeURIComponent).join('/')}${inline ? '?inline=1' : ''}`;
}

/**
 * Downloads an export (`format`: ipynb, py or inputs; one turn when `turnId`) of the conversation or share at `base`:
 * fetched first, so a refusal (nothing ran cleanly) is shown as its message instead of a broken download.
 * @param {string} base
 * @param {ExportFormat} format
 * @param {string} [turnId]
 */
export async function downloadExport(base, format, turnId) {
  const url = `${base}/export?format=${format}${turnId ? `&turn=${encodeURIComponent(turnId)}` : ''}`;
  let res;
  try {
    res = await fetch(url);
  } catch {
    throw new ApiError('the server cannot be reached (is `sheetbench serve` running?)', 0);
  }
  if (!res.ok)
    throw new ApiError(
      errorField(await res.json().catch(() => undefined)) ?? `export failed: HTTP ${res.status}`,
      res.status,
    );
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ??
    `export.${format === 'inputs' ? 'zip' : format}`;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  return name;
}
