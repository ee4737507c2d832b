// The analysis API (api-contract.md) from the browser. Every failure becomes an ApiError whose message names the cause,
// so the view that made the call can show it where it happened.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** Fired when the server answers 401: the app shows the sign-in page (the session ended or was revoked). */
export const SIGNED_OUT = 'sheetbench:signed-out';

export async function api(method, path, body) {
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
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.status === 401 && path !== '/api/session')
    dispatchEvent(new CustomEvent(SIGNED_OUT, { detail: json?.error }));
  if (!res.ok) throw new ApiError(json?.error ?? `${method} ${path} failed: HTTP ${res.status}`, res.status);
  return json;
}

export const conv = (id) => `/api/conversations/${encodeURIComponent(id)}`;

/** The API base of what someone shared with me: `/api/shared/<token>` (read-only, same sub-paths as a conversation). */
export const shared = (token) => `/api/shared/${encodeURIComponent(token)}`;

/** URL of a conversation file (workspace-relative path); inline for images. `id` is a conversation id, or a share's API base. */
export function fileUrl(id, path, inline = false) {
  const base = id.startsWith('/api/') ? id : conv(id);
  return `${base}/files/${path.split('/').map(encodeURIComponent).join('/')}${inline ? '?inline=1' : ''}`;
}

/**
 * Downloads an export (`format`: ipynb, py or inputs; one turn when `turnId`) of the conversation or share at `base`:
 * fetched first, so a refusal (nothing ran cleanly) is shown as its message instead of a broken download.
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
      (await res.json().catch(() => undefined))?.error ?? `export failed: HTTP ${res.status}`,
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
