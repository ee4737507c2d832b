import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { AnalysisConfig } from '../../config/schema';
import { ToolRefusal } from '../tools/types';
import { forbiddenAddressReason, systemLookup, type HostLookup, type ResolvedAddress } from './addressPolicy';
import { PerHostRateLimiter } from './rateLimiter';

export interface FetchedBody {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export interface SafeFetchOptions {
  config: AnalysisConfig['fetch'];
  maxBytes: number;
  /** Said in the refusal when the body is over maxBytes (e.g. "the 50 MB download limit"). */
  limitName: string;
  lookupHost?: HostLookup;
  signal?: AbortSignal;
  rateLimiter?: PerHostRateLimiter;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const sharedLimiter = new PerHostRateLimiter();

/**
 * GET with the web_fetch policy: http(s) only; each hop's host is resolved once, every address vetted, and the
 * connection made to that vetted address (no DNS-rebinding window); redirects followed by hand and vetted the same way;
 * a per-host rate limit; the body read as a stream and cut off at maxBytes; one timeout for the whole fetch.
 */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<FetchedBody> {
  const timeout = AbortSignal.timeout(opts.config.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let url = parseUrl(rawUrl);
  for (let hop = 0; ; hop++) {
    const target = await vet(url, opts);
    const response = await request(url, target, opts, signal);
    if (!REDIRECTS.has(response.status)) return { url: rawUrl, finalUrl: url.href, ...response };
    if (hop >= opts.config.maxRedirects)
      throw new ToolRefusal(`too many redirects (more than ${opts.config.maxRedirects}) fetching ${rawUrl}`);
    if (!response.location) throw new ToolRefusal(`${url.href} answered ${response.status} without a Location header`);
    url = parseUrl(new URL(response.location, url).href);
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolRefusal(`not a valid URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolRefusal(`only http and https URLs can be fetched (got ${url.protocol.replace(':', '')})`);
  if (url.username || url.password) throw new ToolRefusal('URLs with credentials are refused');
  return url;
}

/** Checks host policy and rate limit, resolves, and returns the one address to connect to. */
async function vet(url: URL, opts: SafeFetchOptions): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const { config } = opts;
  if (config.allowHosts && !config.allowHosts.map((h) => h.toLowerCase()).includes(host)) {
    throw new ToolRefusal(`host ${host} is not in the configured allow-list (${config.allowHosts.join(', ')})`);
  }
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  try {
    addresses = literal
      ? [{ address: host, family: literal === 6 ? 6 : 4 }]
      : await (opts.lookupHost ?? systemLookup)(host);
  } catch (err) {
    throw new ToolRefusal(`could not resolve ${host}: ${(err as Error).message}`);
  }
  if (!addresses.length) throw new ToolRefusal(`${host} has no address`);
  if (!config.allowPrivateAddresses) {
    for (const { address } of addresses) {
      if (config.allowAddresses?.includes(address)) continue;
      const reason = forbiddenAddressReason(address);
      if (reason)
        throw new ToolRefusal(
          `refused: ${url.href} resolves to ${address}, a ${reason} address; web_fetch only reaches public internet addresses`,
        );
    }
  }
  const rate = (opts.rateLimiter ?? sharedLimiter).take(host, config.perHostPerMinute);
  if (!rate.ok)
    throw new ToolRefusal(
      `rate limit: ${config.perHostPerMinute} requests per minute to ${host} already made; try again in ${rate.waitSeconds} s`,
    );
  return addresses[0];
}

interface RawResponse {
  status: number;
  contentType: string;
  location?: string;
  body: Buffer;
}

function request(url: URL, target: ResolvedAddress, opts: SafeFetchOptions, signal: AbortSignal): Promise<RawResponse> {
  // Connect to the vetted address whatever the resolver would say now; Host and TLS SNI still name the host.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<RawResponse>((resolve, reject) => {
    const fail = (err: unknown) => reject(describeFailure(err, url, signal));
    const req = client.request(
      url,
      {
        method: 'GET',
        lookup: pinned,
        signal,
        headers: { 'user-agent': opts.config.userAgent, 'accept-encoding': 'identity', accept: '*/*' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const contentType = String(res.headers['content-type'] ?? '');
        if (REDIRECTS.has(status)) {
          res.resume();
          resolve({ status, contentType, location: res.headers.location, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(res.headers['content-length'] ?? NaN);
        if (declared > opts.maxBytes) {
          req.destroy();
          reject(new ToolRefusal(`${url.href} is ${declared} bytes, over ${opts.limitName} (${opts.maxBytes} bytes)`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            req.destroy();
            reject(
              new ToolRefusal(
                `${url.href} sent more than ${opts.limitName} (${opts.maxBytes} bytes); the download was stopped`,
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, contentType, body: Buffer.concat(chunks) }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end();
  });
}

function describeFailure(err: unknown, url: URL, signal: AbortSignal): Error {
  if (err instanceof ToolRefusal) return err;
  const e = err as NodeJS.ErrnoException;
  if (signal.aborted) {
    const reason = signal.reason as Error | undefined;
    if (reason?.name === 'TimeoutError') return new ToolRefusal(`fetching ${url.href} timed out`);
    return reason instanceof Error ? reason : new Error('web_fetch aborted');
  }
  return new ToolRefusal(`fetching ${url.href} failed: ${e.code ?? ''} ${e.message}`.replace(/\s+/g, ' ').trim());
}
