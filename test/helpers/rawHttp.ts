import http from 'node:http';
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json<T = any>(): T;
}

/**
 * One HTTP request with exactly the headers given (Host, Origin, Cookie, Sec-Fetch-Site… as a browser or an attacker
 * would send them; fetch() refuses to set some of these), and the whole reply.
 */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: opts.method ?? 'GET',
        headers: opts.headers ?? {},
        timeout: opts.timeoutMs ?? 15_000,
        setHost: !opts.headers?.host && !opts.headers?.Host,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`${opts.method ?? 'GET'} ${url}: no reply in ${opts.timeoutMs ?? 15_000} ms`)),
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/**
 * Exact bytes over a socket (a request line no HTTP client would send: raw unicode, `..` segments left as they are,
 * malformed encodings); the reply's status and body, read until the server closes.
 */
export function rawExchange(
  port: number,
  request: string | Buffer,
  timeoutMs = 15_000,
): Promise<{ status: number; body: string; raw: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(
      () => socket.destroy(new Error(`no reply in ${timeoutMs} ms to ${String(request).slice(0, 80)}`)),
      timeoutMs,
    );
    socket.on('data', (c: Buffer) => chunks.push(c));
    const reply = () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
      return { status, body: raw.slice(raw.indexOf('\r\n\r\n') + 4), raw };
    };
    // A server that answers early (413 before reading a huge body) may reset the socket while we still write: the
    // answer already read counts.
    socket.on('error', (err) => (clearTimeout(timer), chunks.length ? resolve(reply()) : reject(err)));
    socket.on('close', () => (clearTimeout(timer), resolve(reply())));
    // Not end(): the server closes a half-closed socket without answering; `Connection: close` ends the exchange.
    socket.write(request);
  });
}
