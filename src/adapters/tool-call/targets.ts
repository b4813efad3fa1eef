/**
 * The resources a call acts on, found in its arguments and normalised so that two spellings of
 * one resource compare equal. Pure: needs nothing beyond the global `URL`.
 */
import { redactText } from '../../core/secrets.js';
import { squashArgumentName } from './action-classes.js';
import { isAsciiDigit, isAsciiLetter } from './white-space.js';

/** What the adapter knows about the call, which argument names alone cannot say. */
export interface TargetHints {
  /** The tool's noun (`issue` for `get_issue`): what a bare `id` or `number` refers to. */
  readonly noun?: string;
  /** The call creates something: a branch name is then the resource, not a qualifier. */
  readonly creating?: boolean;
  /**
   * The call searches: a file name it is given (`find_file run.py`) is what it looks for, not where
   * it looks, so a file missing at that path says nothing about the search.
   */
  readonly searching?: boolean;
}

/** Argument names that, in a search, name what is looked for. */
const SOUGHT_NAMES = new Set(['filename', 'filenames', 'name']);

const MAX_TARGETS = 16;
const MAX_KEYS = 64;
const MAX_ARRAY_ITEMS = 16;
const MAX_TARGET_LENGTH = 1024;

type Role = 'path' | 'owner' | 'repo' | 'scope' | 'branch' | 'id';

/** Argument names, lower-cased without `_` or `-`, so `file_path`, `filePath` and `filepath` agree. */
const ROLE_BY_KEY = new Map<string, Role>([
  ...[
    'path',
    'paths',
    'file',
    'files',
    'filepath',
    'filepaths',
    'filename',
    'filenames',
    'absolutepath',
    'relativepath',
    'notebookpath',
    'targetfile',
    'source',
    'sources',
    'sourcepath',
    'destination',
    'destinationpath',
    'destpath',
    'src',
    'dst',
    'dest',
    'oldpath',
    'newpath',
    'dir',
    'dirpath',
    'directory',
    'directorypath',
    'folder',
    'folderpath',
    'uri',
    'uris',
    'url',
    'urls',
    'href',
  ].map((key) => [key, 'path'] as const),
  ['owner', 'owner'],
  ...['repo', 'repository', 'repopath', 'repositorypath', 'repourl'].map((key) => [key, 'repo'] as const),
  ...['project', 'bucket', 'database'].map((key) => [key, 'scope'] as const),
  ...['branch', 'branchname', 'newbranch', 'ref'].map((key) => [key, 'branch'] as const),
  ...['id', 'number', 'issuenumber', 'pullnumber', 'prnumber'].map((key) => [key, 'id'] as const),
]);

/** `*_id` and `*_number` arguments that name the conversation, the transport or a position, not a resource. */
const NOT_RESOURCE_IDS = new Set([
  'sessionid',
  'requestid',
  'traceid',
  'spanid',
  'callid',
  'toolcallid',
  'tooluseid',
  'correlationid',
  'clientid',
  'turnid',
  // Positions within what the call reads (`goto 120`, a page of results): not resources.
  'linenumber',
  'columnnumber',
  'pagenumber',
  'rownumber',
]);

const ID_SUFFIX = /(?:_id|Id|ID|_number|Number)$/;
const SCHEME_URL = /^[a-z][a-z0-9+.-]*:\/\//i;
const PATHLIKE_DESCRIPTION =
  /^(?:the |an? )?(?:absolute |relative |full )?(?:path|file ?path|file ?name|url|uri|directory|folder)\b|\b(?:path|url|uri) (?:to|of) (?:the |a )?(?:file|directory|folder|resource|page|repository)\b/i;
const PATHLIKE_FORMATS = new Set(['uri', 'uri-reference', 'iri', 'iri-reference', 'url']);

/** What an argument's name alone says about it. */
interface KeyReading {
  readonly role: Role | undefined;
  /** Named like an id (`issue_id`), unless it names the conversation or the transport. */
  readonly idLike: boolean;
}

/** Tools reuse a handful of argument names; reading each once keeps regexes off the hot path. */
const keyReadings = new Map<string, KeyReading>();
const MAX_KEY_READINGS = 1024;

function readKey(key: string): KeyReading {
  const cached = keyReadings.get(key);
  if (cached) return cached;
  const squashed = squashArgumentName(key);
  const reading = {
    role: ROLE_BY_KEY.get(squashed),
    idLike: ID_SUFFIX.test(key) && !NOT_RESOURCE_IDS.has(squashed),
  };
  if (keyReadings.size >= MAX_KEY_READINGS) keyReadings.clear();
  keyReadings.set(key, reading);
  return reading;
}

function roleOf(key: string, schemaPaths: ReadonlySet<string> | undefined): Role | undefined {
  const reading = readKey(key);
  if (reading.role) return reading.role;
  if (schemaPaths?.has(key)) return 'path';
  return reading.idLike ? 'id' : undefined;
}

const schemaCache = new WeakMap<object, ReadonlySet<string>>();

/** Properties the schema itself marks as paths or URLs (by format or by description). */
function pathPropertiesOf(schema: unknown): ReadonlySet<string> | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const cached = schemaCache.get(schema);
  if (cached) return cached;
  const found = new Set<string>();
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties === 'object' && properties !== null) {
    for (const [name, property] of Object.entries(properties).slice(0, MAX_KEYS)) {
      if (typeof property !== 'object' || property === null) continue;
      const { format, description } = property as { format?: unknown; description?: unknown };
      const byFormat = typeof format === 'string' && PATHLIKE_FORMATS.has(format);
      const byDescription = typeof description === 'string' && PATHLIKE_DESCRIPTION.test(description);
      if (byFormat || byDescription) found.add(name);
    }
  }
  schemaCache.set(schema, found);
  return found;
}

function cleanString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed.slice(0, MAX_TARGET_LENGTH);
}

/** Strings, arrays of strings, and arrays of objects that carry a `path` (GitHub's `push_files`). */
function stringsOf(value: unknown): string[] {
  const single = cleanString(value);
  if (single !== undefined) return [single];
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value.slice(0, MAX_ARRAY_ITEMS)) {
    const text =
      cleanString(item) ??
      (typeof item === 'object' && item !== null
        ? cleanString((item as Record<string, unknown>).path ?? (item as Record<string, unknown>).file_path)
        : undefined);
    if (text !== undefined) out.push(text);
  }
  return out;
}

function idValue(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return cleanString(value);
}

function idNoun(key: string, hints: TargetHints): string {
  const own = key
    .replace(ID_SUFFIX, '')
    .replace(/[_-]+$/, '')
    .toLowerCase();
  if (own !== '' && own !== 'id' && own !== 'number') return own;
  return hints.noun || 'id';
}

interface Primary {
  readonly value: string;
  /** A path joins onto a path qualifier; anything else hangs off it after a colon. */
  readonly isPath: boolean;
}

function isFilesystemPath(value: string): boolean {
  return !SCHEME_URL.test(value) && (value.startsWith('/') || hasWindowsDrive(value) || value === '.');
}

/**
 * The normalised resources a call acts on, from its argument names and its input schema. A repository,
 * project or branch qualifies the paths and ids beside it rather than standing alone, so that "file not
 * found" in one repository says nothing about the whole repository. At most 16 targets.
 */
export function extractTargets(
  args: Readonly<Record<string, unknown>> | undefined,
  inputSchema?: unknown,
  hints: TargetHints = {},
): string[] {
  if (typeof args !== 'object' || args === null) return [];
  const schemaPaths = pathPropertiesOf(inputSchema);
  const primaries: Primary[] = [];
  let owner: string | undefined;
  let repo: string | undefined;
  let branch: string | undefined;
  let scopes: string[] | undefined;

  let seen = 0;
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    if (++seen > MAX_KEYS) break;
    const role = roleOf(key, schemaPaths);
    if (role === undefined) continue;
    if (hints.searching && role === 'path' && SOUGHT_NAMES.has(squashArgumentName(key))) continue;
    const value = args[key];
    switch (role) {
      case 'path': {
        // One path is the usual value: no list made for it.
        const single = cleanString(value);
        if (single !== undefined) primaries.push({ value: normalizeTarget(single), isPath: true });
        else
          for (const text of stringsOf(value)) primaries.push({ value: normalizeTarget(text), isPath: true });
        break;
      }
      case 'owner':
        owner = cleanString(value);
        break;
      case 'repo': {
        const text = cleanString(value);
        if (text !== undefined) repo = normalizeTarget(text);
        break;
      }
      case 'scope': {
        const text = idValue(value);
        if (text !== undefined) scopes = scopes === undefined ? [text] : [...scopes, text];
        break;
      }
      case 'branch': {
        const text = cleanString(value);
        if (text === undefined) break;
        if (hints.creating) primaries.push({ value: `branch/${text}`, isPath: false });
        else branch = text;
        break;
      }
      case 'id': {
        const text = idValue(value);
        if (text !== undefined) primaries.push({ value: `${idNoun(key, hints)}/${text}`, isPath: false });
        break;
      }
    }
  }

  const qualifier = qualifierOf(owner, repo, scopes ?? [], branch);
  if (primaries.length === 0) return qualifier === undefined ? [] : [qualifier];
  // One resource is the usual call: no set needed to keep it unique.
  if (primaries.length === 1)
    return [qualify(qualifier, primaries[0] as Primary).slice(0, MAX_TARGET_LENGTH)];
  const targets = new Set<string>();
  for (const primary of primaries) {
    if (targets.size >= MAX_TARGETS) break;
    targets.add(qualify(qualifier, primary).slice(0, MAX_TARGET_LENGTH));
  }
  return [...targets];
}

function qualifierOf(
  owner: string | undefined,
  repo: string | undefined,
  scopes: readonly string[],
  branch: string | undefined,
): string | undefined {
  const repoPart =
    owner !== undefined && repo !== undefined && !repo.includes('/') ? `${owner}/${repo}` : repo;
  const parts = repoPart === undefined ? [...scopes] : [repoPart, ...scopes];
  if (parts.length === 0) return undefined;
  const base = parts.join(':');
  return branch === undefined ? base : `${base}@${branch}`;
}

function qualify(qualifier: string | undefined, primary: Primary): string {
  if (qualifier === undefined) return primary.value;
  if (primary.isPath && isFilesystemPath(qualifier)) {
    return isFilesystemPath(primary.value) && primary.value !== '.'
      ? primary.value
      : normalizePath(`${qualifier}/${primary.value}`);
  }
  return `${qualifier}:${primary.value}`;
}

/*
 * A path is read character by character rather than by patterns: every call that names a path reads
 * it here, and a fresh process compiles each pattern it runs twice (V8 compiles a pattern to machine
 * code on its second run), which its first calls pay for.
 */
const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const DOT = 0x2e;

/** Whether the text starts with a Windows drive and its `/` (`C:/`). */
function hasWindowsDrive(text: string): boolean {
  const letter = text.charCodeAt(0) | 0x20;
  return letter >= 0x61 && letter <= 0x7a && text.charCodeAt(1) === 0x3a && text.charCodeAt(2) === SLASH;
}

/** A character `.` of a pattern does not match: the ends of lines. */
function endsLine(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/**
 * Anything normalisation would change: backslashes, `//`, `.` or `..` segments, a trailing `/` after
 * anything but the end of a line, a Windows drive.
 */
function needsNormalising(path: string): boolean {
  const length = path.length;
  if (hasWindowsDrive(path)) return true;
  if (length >= 2 && path.charCodeAt(length - 1) === SLASH && !endsLine(path.charCodeAt(length - 2)))
    return true;
  let segmentStart = 0;
  for (let index = 0; index <= length; index++) {
    const code = index < length ? path.charCodeAt(index) : SLASH;
    if (code === BACKSLASH) return true;
    if (code !== SLASH) continue;
    if (index < length && index > 0 && path.charCodeAt(index - 1) === SLASH) return true;
    if (isDotSegment(path, segmentStart, index)) return true;
    segmentStart = index + 1;
  }
  return false;
}

/**
 * A POSIX-style path: backslashes become `/`, `.` and `..` are resolved, `//` collapses, the trailing
 * `/` goes. Absolute paths stay absolute (`..` stops at the root); case is kept. Never throws.
 */
export function normalizePath(path: string): string {
  if (path === '') return '';
  // Most paths are already normal; the fast path skips splitting and joining them.
  if (!needsNormalising(path)) return path;
  // A URL with a password inside a path (`mirror/https://user:pass@host/x`) is redacted while its
  // `//` still marks it as one: collapsed, the password would no longer be recognised.
  const clean = path.includes('@') ? redactText(path) : path;
  let rest = clean.includes('\\') ? clean.replaceAll('\\', '/') : clean;
  let root = '';
  if (hasWindowsDrive(rest)) {
    // A drive is one drive in either case: `e:\app` and `E:\app` are one path.
    root = `${rest.slice(0, 1).toUpperCase()}:/`;
    rest = rest.slice(2);
  } else if (rest.startsWith('/')) {
    root = '/';
  }
  const segments: string[] = [];
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      const last = segments[segments.length - 1];
      if (last !== undefined && last !== '..') segments.pop();
      else if (root === '') segments.push('..');
      continue;
    }
    segments.push(segment);
  }
  const body = segments.join('/');
  if (root !== '') return root + body;
  return body === '' ? '.' : body;
}

/**
 * A URL with its scheme and host lower-cased, the default port and the fragment dropped, and the path
 * and query kept. A string that does not parse as a URL comes back unchanged. Never throws.
 */
export function normalizeUrl(url: string): string {
  // Most URLs agents name are already as the parser would write them: read so, they skip it.
  if (isWrittenAsParsed(url)) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  parsed.hash = '';
  const host = parsed.host;
  if (host !== host.toLowerCase()) {
    // Non-special schemes (`git+ssh:`, `s3:`) keep the host's case; resources do not.
    try {
      parsed.host = host.toLowerCase();
    } catch {
      // Some hosts cannot be reassigned; the parsed form is still a stable identity.
    }
  }
  return parsed.href;
}

/** Whether `text` from `start` up to `end` is the segment `.` or `..`. */
function isDotSegment(text: string, start: number, end: number): boolean {
  const size = end - start;
  return (
    (size === 1 || size === 2) &&
    text.charCodeAt(start) === DOT &&
    (size === 1 || text.charCodeAt(start + 1) === DOT)
  );
}

const LOWER_A = 0x61;
const LOWER_Z = 0x7a;
const HYPHEN = 0x2d;
const QUESTION = 0x3f;

function isLowerLetter(code: number): boolean {
  return code >= LOWER_A && code <= LOWER_Z;
}

/**
 * Characters of a path or a query the URL parser writes back as they are: letters, digits and
 * `-._~!$&()*+,;=:@/`. Left out, though some are kept too: `%` (an escaped dot is a dot segment),
 * `'`, `\`, `^`, `|`, backquote, braces, quotes, spaces and anything past ASCII.
 */
const KEPT_IN_PATH: Uint8Array = (() => {
  const kept = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    if (isAsciiLetter(code) || isAsciiDigit(code)) kept[code] = 1;
  }
  for (const char of '-._~!$&()*+,;=:@/') kept[char.charCodeAt(0)] = 1;
  return kept;
})();

/**
 * Whether the URL parser would write `url` back as it is, read character by character (see above):
 * `http` or `https` in lower case; a host of labels of lower-case letters and digits, `-` inside
 * them, none of them punycode (`xn--`), the last starting with a letter (so never an IPv4 address);
 * no user, port or fragment; a path without `.` or `..` segments and a query, of characters it keeps
 * (`%` too, in the query).
 * Anything else is left to the parser. Exported for tests.
 */
export function isWrittenAsParsed(url: string): boolean {
  const length = url.length;
  let at: number;
  if (url.startsWith('https://')) at = 8;
  else if (url.startsWith('http://')) at = 7;
  else return false;
  // The host, label by label, up to the path's `/`.
  let labelStart = at;
  for (; ; at++) {
    const code = at < length ? url.charCodeAt(at) : SLASH;
    if (code === DOT || code === SLASH) {
      const size = at - labelStart;
      if (size === 0 || url.charCodeAt(at - 1) === HYPHEN) return false;
      if (size >= 4 && url.charCodeAt(labelStart + 2) === HYPHEN && url.charCodeAt(labelStart + 3) === HYPHEN)
        return false;
      if (code === SLASH) {
        if (!isLowerLetter(url.charCodeAt(labelStart))) return false;
        break;
      }
      labelStart = at + 1;
      continue;
    }
    if (isLowerLetter(code) || isAsciiDigit(code)) continue;
    if (code === HYPHEN && at > labelStart) continue;
    return false;
  }
  // The parser writes a `/` after a host that ends the URL: one more character than it holds.
  if (at >= length) return false;
  let segmentStart = at + 1;
  let query = false;
  for (at++; at <= length; at++) {
    const code = at < length ? url.charCodeAt(at) : SLASH;
    if (query) {
      if (code === QUESTION || code === 0x25 || (code < 128 && KEPT_IN_PATH[code] === 1)) continue;
      return false;
    }
    if (code === SLASH || code === QUESTION) {
      if (isDotSegment(url, segmentStart, at)) return false;
      segmentStart = at + 1;
      if (code === QUESTION) query = true;
      continue;
    }
    if (code >= 128 || KEPT_IN_PATH[code] !== 1) return false;
  }
  return true;
}

/** Picks the normaliser for a target: URLs by scheme (`file://` becomes a path), paths otherwise. */
export function normalizeTarget(value: string): string {
  if (!SCHEME_URL.test(value)) return normalizePath(value);
  if (/^file:\/\//i.test(value)) {
    try {
      return normalizePath(decodeURIComponent(new URL(value).pathname));
    } catch {
      return normalizeUrl(value);
    }
  }
  return normalizeUrl(value);
}
