import os from 'node:os';

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

export const isLoopbackHost = (host: string): boolean =>
  LOOPBACK.includes(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);

const isWildcard = (host: string): boolean => host === '0.0.0.0' || host === '::' || host === '';

/**
 * The names a request's Host header may carry: loopback, the listen address, the configured public names, and, when
 * listening on every interface, this machine's addresses and host name. Any other name is a DNS-rebinding page (or a
 * misdirected request) and is refused.
 */
export function allowedHostNames(listenHost: string, publicNames: string[]): Set<string> {
  const names = new Set([...LOOPBACK, ...publicNames.map(normalizeHostName)]);
  if (!isWildcard(listenHost)) names.add(normalizeHostName(listenHost));
  else {
    names.add(os.hostname().toLowerCase());
    for (const list of Object.values(os.networkInterfaces()))
      for (const a of list ?? []) names.add(normalizeHostName(a.address));
  }
  return names;
}

/** The host name of a Host header (`name[:port]`, `[v6]:port`), lower-case, without a trailing dot; undefined if it does not parse. */
export function hostNameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader || /[\s/@\\?#]/.test(hostHeader)) return undefined;
  try {
    return normalizeHostName(new URL(`http://${hostHeader}`).hostname);
  } catch {
    return undefined;
  }
}

function normalizeHostName(name: string): string {
  return name
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}
