// The analysis API (api-contract.md) from the browser. Every failure becomes an ApiError whose message names the cause,
// so the view that made the call can show it where it happened.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
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
  if (!res.ok) throw new ApiError(json?.error ?? `${method} ${path} failed: HTTP ${res.status}`, res.status);
  return json;
}

export const conv = (id) => `/api/conversations/${encodeURIComponent(id)}`;

/** URL of a conversation file (workspace-relative path); inline for images. */
export function fileUrl(id, path, inline = false) {
  return `${conv(id)}/files/${path.split('/').map(encodeURIComponent).join('/')}${inline ? '?inline=1' : ''}`;
}
