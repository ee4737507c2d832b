import http from 'node:http';

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
export function rawRequest(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {}): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method: opts.method ?? 'GET', headers: opts.headers ?? {}, timeout: opts.timeoutMs ?? 15_000, setHost: !opts.headers?.host && !opts.headers?.Host },
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
    req.on('timeout', () => req.destroy(new Error(`${opts.method ?? 'GET'} ${url}: no reply in ${opts.timeoutMs ?? 15_000} ms`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}
