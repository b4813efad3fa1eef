/** Where the HTTP proxy listens. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export const DEFAULT_HTTP_HOST = '127.0.0.1';

/**
 * `HOST:PORT`, `:PORT` or `PORT` (on 127.0.0.1); an IPv6 host goes in brackets (`[::1]:8080`).
 * Port 0 asks the system for a free port.
 */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]\s]*):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65_535) {
    throw new Error(`"${text}" is not an address to listen on: write HOST:PORT, such as 127.0.0.1:8808`);
  }
  return { host: match[1] || DEFAULT_HTTP_HOST, port };
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(?:\.\d{1,3}){3}$/.test(bare);
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}
