import {
  SdkHttpError,
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { NarrowingError } from '../core/errors.js';

/** An MCP server reached over HTTP: its endpoint and the headers every request carries. */
export interface RemoteServer {
  readonly url: URL;
  /** Credentials, mostly: never logged, journaled or saved in clear. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The two HTTP transports: Streamable HTTP, and the legacy HTTP+SSE one it replaced. */
export type RemoteTransportKind = 'streamable-http' | 'sse';

export const MAX_HEADERS = 32;
export const MAX_HEADER_VALUE_BYTES = 8 * 1024;
const MAX_HEADER_NAME_LENGTH = 256;
/** An HTTP field name (RFC 9110 `token`). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the transports set themselves: a user's value would break the exchange. */
const TRANSPORT_HEADERS = new Set([
  'accept',
  'content-type',
  'content-length',
  'host',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'connection',
  'transfer-encoding',
]);

/**
 * One `--header "Name: value"`. The value is a secret: no message repeats it. Refused: a name
 * that is not an HTTP token or one the transport sets itself, a value with CR, LF or NUL (it would
 * smuggle a second header or request), and a value over 8 KiB.
 */
export function parseHeader(text: string): readonly [name: string, value: string] {
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  if (colon < 0 || name === '') {
    throw headerError(`--header takes "Name: value", as in --header "Authorization: Bearer <token>"`);
  }
  if (name.length > MAX_HEADER_NAME_LENGTH || !HEADER_NAME.test(name)) {
    throw headerError(
      `--header: "${name.slice(0, 40)}" is not an HTTP header name (letters, digits and -_.!#$%&'*+^\`|~ only)`,
    );
  }
  if (TRANSPORT_HEADERS.has(name.toLowerCase())) {
    throw headerError(`--header: ${name} is set by the MCP transport itself and cannot be given`);
  }
  const raw = text.slice(colon + 1);
  if (/[\r\n\0]/.test(raw)) {
    throw headerError(`--header: the value of ${name} contains a line break or NUL, which HTTP forbids`);
  }
  const value = raw.trim();
  if (Buffer.byteLength(value) > MAX_HEADER_VALUE_BYTES) {
    throw headerError(`--header: the value of ${name} is over ${MAX_HEADER_VALUE_BYTES} bytes`);
  }
  return [name, value];
}

/** Every `--header`, checked, as one record; a name given twice is refused rather than guessed at. */
export function parseHeaders(texts: readonly string[]): Record<string, string> {
  if (texts.length > MAX_HEADERS) throw headerError(`--header: at most ${MAX_HEADERS} headers`);
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const text of texts) {
    const [name, value] = parseHeader(text);
    if (seen.has(name.toLowerCase())) throw headerError(`--header: ${name} is given twice`);
    seen.add(name.toLowerCase());
    headers[name] = value;
  }
  return headers;
}

function headerError(message: string): NarrowingError {
  return new NarrowingError('CONFIG_INVALID', message);
}

/** The URL as it may be shown: without a password or the values of its query. */
export function redactedUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password) shown.password = 'redacted';
  for (const key of [...new Set(shown.searchParams.keys())]) shown.searchParams.set(key, 'redacted');
  return shown.href;
}

export function remoteTransport(server: RemoteServer, kind: RemoteTransportKind): Transport {
  const requestInit: RequestInit = server.headers ? { headers: { ...server.headers } } : {};
  return kind === 'sse'
    ? new SSEClientTransport(server.url, { requestInit })
    : new StreamableHTTPClientTransport(server.url, { requestInit });
}

/** The HTTP status a transport failure carries, if any. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  if (error instanceof SseError && typeof error.code === 'number') return error.code;
  return undefined;
}

/**
 * Whether a failed Streamable HTTP handshake says "try the legacy SSE transport": the SDK's advice
 * is a 4xx answer to the POST. Credentials refused (401, 403) are not that: SSE would be refused too.
 */
export function suggestsSse(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/**
 * One line that says what went wrong with a remote server and what to do, never the page it
 * answered with (an SSE or web server's HTML) and never a header value.
 */
export function describeRemoteFailure(error: unknown): string {
  const status = httpStatusOf(error);
  if (status === 401 || status === 403) {
    return (
      `the server refused the credentials (HTTP ${status}): pass them with ` +
      '--header "Authorization: Bearer <token>" (or the header its documentation names)'
    );
  }
  if (status === 404 || status === 405) {
    return (
      `no MCP endpoint answers at this URL (HTTP ${status}): check the path ` +
      '(Streamable HTTP servers usually serve /mcp, legacy SSE servers /sse)'
    );
  }
  if (status !== undefined) return `the server answered HTTP ${status}`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'nothing listens at this address: is the server running?';
  if (code === 'ENOTFOUND') return 'the host name does not resolve: check the URL';
  const text = error instanceof Error ? error.message : String(error);
  const [line = ''] = text.split(/\r?\n/, 1);
  return /<(?:!doctype|html)/i.test(line)
    ? 'the server answered with a web page, not MCP'
    : line.slice(0, 200);
}
