/**
 * A Redis address as narrowing takes it: `redis://[user:password@]host[:port][/db][?prefix=name]`
 * (`rediss://` for TLS). The password never leaves this module in clear: every message, journal
 * entry and problem report names the server by its redacted form.
 */
import { createHash } from 'node:crypto';
import { NarrowingError } from '../core/errors.js';

export interface RedisAddress {
  /** What the driver connects to (the password included, the `prefix` parameter removed). */
  readonly connectUrl: string;
  /** For people to read: the password replaced by `***`. */
  readonly display: string;
  /** Every key and the channel start with it. */
  readonly keyPrefix: string;
  /** True when the prefix was chosen (`keyPrefix`, `?prefix=`), false when it is the default. */
  readonly prefixChosen: boolean;
  /** The password, so that messages from the driver can be cleaned of it. */
  readonly secret: string | undefined;
}

/** The prefix without a repository, and the one every repository shared before prefixes were per repository. */
export const DEFAULT_KEY_PREFIX = 'narrowing';

/**
 * The default prefix of one repository (`narrowing:repo:<16 hex digits of its SHA-256>`): two
 * repositories on one server share nothing unless they are given the same prefix.
 */
export function repositoryKeyPrefix(repository: string | undefined): string {
  if (repository === undefined || repository === '') return DEFAULT_KEY_PREFIX;
  const digest = createHash('sha256').update(repository).digest('hex').slice(0, 16);
  return `${DEFAULT_KEY_PREFIX}:repo:${digest}`;
}

export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//i.test(value);
}

export function parseRedisAddress(
  value: string | URL,
  keyPrefix?: string,
  defaultPrefix = DEFAULT_KEY_PREFIX,
): RedisAddress {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new NarrowingError('USAGE', 'the redis store needs a URL such as redis://localhost:6379');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new NarrowingError(
      'USAGE',
      `the redis store needs a redis:// or rediss:// URL, not ${url.protocol}//…`,
    );
  }
  const chosen = keyPrefix ?? url.searchParams.get('prefix') ?? undefined;
  const prefix = chosen ?? defaultPrefix;
  url.searchParams.delete('prefix');
  const secret = url.password === '' ? undefined : decodeURIComponent(url.password);
  const connectUrl = url.toString();
  if (url.password !== '') url.password = '***';
  return {
    connectUrl,
    display: url.toString(),
    keyPrefix: prefix,
    prefixChosen: chosen !== undefined,
    secret,
  };
}

/** A Redis URL fit to print: its password replaced by `***`. Anything else is returned as it is. */
export function redactRedisUrl(value: string): string {
  if (!isRedisUrl(value)) return value;
  try {
    return parseRedisAddress(value, '').display;
  } catch {
    return value.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** Removes the password from a message written by the driver. */
export function withoutSecret(message: string, secret: string | undefined): string {
  if (secret === undefined || secret === '') return message;
  return message.split(secret).join('***').split(encodeURIComponent(secret)).join('***');
}
