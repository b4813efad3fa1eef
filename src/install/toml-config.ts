/**
 * Codex's `config.toml`, read so that one server's command line can be edited in the text: each
 * `[mcp_servers.<name>]` table is located with the offsets of its `command` value and of every
 * element of its `args` list. Values are decoded by a full TOML parser; this module only finds
 * where they are, and anything it cannot place with certainty is reported instead of guessed.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import type { ArrayNode, JsonNode, Member, ObjectNode, ScalarNode, Span } from './jsonc.js';

export const TOML_SERVERS_KEY = 'mcp_servers';

/** A config file far larger than this is not a hand-written client config. */
export const MAX_TOML_BYTES = 4 * 1024 * 1024;

export interface TomlServers {
  /** The whole document as plain values. */
  readonly value: Record<string, unknown>;
  /** One member per server, its value spanning the server's tables in the text. */
  readonly servers: ObjectNode | undefined;
  /** Servers that are defined in a form narrowing does not edit, with what to change by hand. */
  readonly problems: ReadonlyMap<string, string>;
}

export class TomlReadError extends Error {
  override readonly name = 'TomlReadError';
}

/** Parses a TOML document into plain objects (the parser's own objects have no prototype). */
export function parseTomlValue(text: string): Record<string, unknown> {
  if (text.length > MAX_TOML_BYTES) throw new TomlReadError(`it is larger than ${MAX_TOML_BYTES} bytes`);
  try {
    return plain(parseToml(text)) as Record<string, unknown>;
  } catch (error) {
    throw new TomlReadError((error as Error).message.split('\n')[0] ?? 'it is not valid TOML');
  }
}

function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Date) return `${value.toString()}`;
  if (typeof value === 'bigint') return value.toString();
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: plain(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** Reads the servers of a Codex config; throws `TomlReadError` when the text is not TOML. */
export function readTomlServers(text: string): TomlServers {
  const value = parseTomlValue(text);
  const declared = value[TOML_SERVERS_KEY];
  if (declared === undefined) return { value, servers: undefined, problems: new Map() };
  if (!isRecord(declared)) throw new TomlReadError(`"${TOML_SERVERS_KEY}" is not a table of servers`);
  const scan = scanStructure(text);
  const members: Member[] = [];
  const problems = new Map<string, string>();
  for (const name of Object.keys(declared)) {
    const tables = scan.tables.filter(
      (table) => !table.arrayOfTables && table.path[0] === TOML_SERVERS_KEY && table.path[1] === name,
    );
    const header = tables.find((table) => table.path.length === 2);
    if (header === undefined) {
      problems.set(
        name,
        `it is not written as its own [${TOML_SERVERS_KEY}.${tomlKey(name)}] table (an inline table or dotted keys), ` +
          'so its command line cannot be edited without rewriting other text. Rewrite it as a table ' +
          `\`[${TOML_SERVERS_KEY}.${tomlKey(name)}]\` with \`command = …\` and \`args = […]\` on their own lines, then try again`,
      );
      continue;
    }
    const entry = entryOf(text, scan, header);
    if (typeof entry === 'string') problems.set(name, entry);
    else members.push({ key: name, keySpan: header.nameSpan, value: entry });
  }
  const servers: ObjectNode = { kind: 'object', start: 0, end: text.length, members };
  return { value, servers, problems };
}

/**
 * The entry node of one server whose text is `entryText` (a record's saved entry), or `undefined`
 * when it is not exactly one server table.
 */
export function readTomlEntry(entryText: string): ObjectNode | undefined {
  try {
    const { servers, problems } = readTomlServers(entryText);
    if (problems.size > 0 || servers?.members.length !== 1) return undefined;
    return servers.members[0]!.value as ObjectNode;
  } catch {
    return undefined;
  }
}

/**
 * Why `after` is not `before` with only the command and arguments of `server` changed, or
 * `undefined` when it is. Both texts are read by the full parser; the server's command line in
 * `after` must also read the same through the offsets, so a later edit lands where it should.
 */
export function tomlEditProblem(
  before: string,
  after: string,
  server: string,
  restoredEntry?: string,
): string | undefined {
  let old: Record<string, unknown>;
  let now: Record<string, unknown>;
  try {
    old = parseTomlValue(before);
    now = parseTomlValue(after);
  } catch (error) {
    return `the edited file would not be valid TOML (${(error as Error).message})`;
  }
  const nowEntry = serverValue(now, server);
  if (restoredEntry !== undefined) {
    // The whole entry was put back: it must read as the saved one, and the rest as before.
    let saved: unknown;
    try {
      saved = serverValue(parseTomlValue(restoredEntry), server);
    } catch {
      saved = undefined;
    }
    if (
      !isDeepStrictEqual(nowEntry, saved) ||
      !isDeepStrictEqual(withoutServer(old, server), withoutServer(now, server))
    ) {
      return 'the restored file would not hold the saved entry with everything else unchanged';
    }
  } else if (!isDeepStrictEqual(withoutCommandLine(old, server), withoutCommandLine(now, server))) {
    return 'the edit would change more than the server\'s "command" and "args"';
  }
  const read = readTomlServers(after);
  const member = read.servers?.members.find((each) => each.key === server);
  const node = member?.value;
  const command = node?.kind === 'object' ? node.members.find((each) => each.key === 'command') : undefined;
  const args = node?.kind === 'object' ? node.members.find((each) => each.key === 'args') : undefined;
  const spans = {
    command: command && nodeText(command.value),
    args: args && nodeText(args.value),
  };
  if (
    !isRecord(nowEntry) ||
    spans.command !== nowEntry.command ||
    !isDeepStrictEqual(spans.args, nowEntry.args)
  ) {
    return 'the edited command line would not read back as written';
  }
  return undefined;
}

/** A TOML basic string holding `value`; throws on text TOML cannot hold (a lone surrogate). */
export function tomlString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      throw new TomlReadError('the text has a lone surrogate, which TOML cannot hold');
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** The value a node was read as (the offsets' view of the text). */
function nodeText(node: JsonNode): unknown {
  if (node.kind === 'array') return node.items.map(nodeText);
  if (node.kind === 'object') return undefined;
  return node.value;
}

function serverValue(document: Record<string, unknown>, server: string): unknown {
  const servers = document[TOML_SERVERS_KEY];
  return isRecord(servers) ? servers[server] : undefined;
}

function withoutCommandLine(document: Record<string, unknown>, server: string): unknown {
  const servers = document[TOML_SERVERS_KEY];
  if (!isRecord(servers) || !isRecord(servers[server])) return document;
  const { command: _command, args: _args, ...rest } = servers[server] as Record<string, unknown>;
  return { ...document, [TOML_SERVERS_KEY]: { ...servers, [server]: rest } };
}

function withoutServer(document: Record<string, unknown>, server: string): unknown {
  const servers = document[TOML_SERVERS_KEY];
  if (!isRecord(servers)) return document;
  const { [server]: _server, ...rest } = servers;
  return { ...document, [TOML_SERVERS_KEY]: rest };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

// ---------------------------------------------------------------------------------------------
// Where things are: table headers and key/value pairs, with offsets.

interface TableHeader extends Span {
  readonly path: readonly string[];
  readonly arrayOfTables: boolean;
  /** The span of the header's last key. */
  readonly nameSpan: Span;
}

interface KeyValue {
  /** The table the pair is in; `undefined` before the first header. */
  readonly table: TableHeader | undefined;
  readonly keys: readonly string[];
  readonly keySpan: Span;
  readonly value: Span;
  /** For an array: its elements (nested arrays and tables are not looked into). */
  readonly items: readonly Span[] | undefined;
  /** The offset just past the pair's line, with its comment (before its line break). */
  readonly lineEnd: number;
}

interface Structure {
  readonly tables: readonly TableHeader[];
  readonly pairs: readonly KeyValue[];
}

/**
 * The server's entry: its header table and the sub-tables (`[mcp_servers.<name>.env]`) that follow
 * it directly, with the offsets of `command` and `args`; a string saying why when they cannot be used.
 */
function entryOf(text: string, scan: Structure, header: TableHeader): ObjectNode | string {
  const index = scan.tables.indexOf(header);
  let last = header;
  for (const table of scan.tables.slice(index + 1)) {
    const inside =
      table.path.length > 2 && table.path[0] === header.path[0] && table.path[1] === header.path[1];
    if (!inside) break;
    last = table;
  }
  const inEntry = (pair: KeyValue) =>
    pair.table !== undefined &&
    scan.tables.indexOf(pair.table) >= index &&
    scan.tables.indexOf(pair.table) <= scan.tables.indexOf(last);
  const pairs = scan.pairs.filter(inEntry);
  const end = Math.max(last.end, ...pairs.map((pair) => pair.lineEnd));
  const own = pairs.filter((pair) => pair.table === header);
  const entryText = text.slice(header.start, end);
  let value: Record<string, unknown>;
  try {
    const parsed = parseTomlValue(entryText);
    value = serverValue(parsed, header.path[1]!) as Record<string, unknown>;
  } catch {
    return 'its table cannot be read on its own; edit it by hand';
  }
  const node = valueNode(value, header.start) as ObjectNode;
  const members = node.members.map((member) => {
    const pair = own.find((each) => each.keys.length === 1 && each.keys[0] === member.key);
    if (member.key !== 'command' && member.key !== 'args') return member;
    if (pair === undefined) return undefined;
    return { key: member.key, keySpan: pair.keySpan, value: spannedNode(text, pair) };
  });
  if (members.includes(undefined)) {
    return `its "command" or "args" is written with dotted keys; write \`command = …\` and \`args = […]\` as plain keys of [${TOML_SERVERS_KEY}.${tomlKey(header.path[1]!)}], then try again`;
  }
  return { kind: 'object', start: header.start, end, members: members as Member[] };
}

function spannedNode(text: string, pair: KeyValue): JsonNode {
  const decode = (span: Span): unknown => decodeValue(text.slice(span.start, span.end));
  if (pair.items !== undefined) {
    const items = pair.items.map((span) => scalarNode(decode(span), span));
    return { kind: 'array', start: pair.value.start, end: pair.value.end, items } satisfies ArrayNode;
  }
  return scalarNode(decode(pair.value), pair.value);
}

function scalarNode(value: unknown, span: Span): JsonNode {
  if (typeof value === 'string') return { kind: 'string', value, ...span };
  if (typeof value === 'number') return { kind: 'number', value, ...span };
  if (typeof value === 'boolean') return { kind: 'boolean', value, ...span };
  // Nested arrays and tables are not edited: they keep their value, without offsets inside.
  return { ...valueNode(value, span.start), start: span.start, end: span.end };
}

function decodeValue(valueText: string): unknown {
  return (parseTomlValue(`v = ${valueText}`) as { v: unknown }).v;
}

/** A node for a plain value, all at `at` (for values that are compared, never edited). */
function valueNode(value: unknown, at: number): JsonNode {
  if (Array.isArray(value))
    return { kind: 'array', start: at, end: at, items: value.map((item) => valueNode(item, at)) };
  if (isRecord(value)) {
    const members = Object.entries(value).map(([key, item]) => ({
      key,
      keySpan: { start: at, end: at },
      value: valueNode(item, at),
    }));
    return { kind: 'object', start: at, end: at, members };
  }
  const scalar = value as ScalarNode['value'];
  const kind = typeof scalar === 'string' ? 'string' : typeof scalar === 'number' ? 'number' : 'boolean';
  return { kind, value: scalar, start: at, end: at };
}

/** Finds table headers and key/value pairs. The text has already been parsed, so it is valid TOML. */
function scanStructure(text: string): Structure {
  const scanner = new Scanner(text);
  const tables: TableHeader[] = [];
  const pairs: KeyValue[] = [];
  let table: TableHeader | undefined;
  for (;;) {
    scanner.skipBlankLines();
    if (scanner.at >= text.length) break;
    const start = scanner.at;
    if (start === scanner.lastLine) throw new TomlReadError('its layout could not be followed');
    scanner.lastLine = start;
    if (text[start] === '[') {
      const arrayOfTables = text[start + 1] === '[';
      scanner.at += arrayOfTables ? 2 : 1;
      const keys = scanner.keys();
      scanner.at += arrayOfTables ? 2 : 1;
      table = { start, end: scanner.at, path: keys.names, arrayOfTables, nameSpan: keys.last };
      tables.push(table);
    } else {
      const keys = scanner.keys();
      scanner.skipSpaces();
      scanner.at += 1; // '='
      scanner.skipSpaces();
      const valueStart = scanner.at;
      const items = scanner.value();
      const value = { start: valueStart, end: scanner.at };
      scanner.skipComment();
      pairs.push({ table, keys: keys.names, keySpan: keys.span, value, items, lineEnd: scanner.at });
    }
    scanner.skipComment();
  }
  return { tables, pairs };
}

class Scanner {
  at = 0;
  /** Where the previous line started, so that text the scanner cannot follow stops it. */
  lastLine = -1;

  constructor(private readonly text: string) {}

  skipSpaces(): void {
    while (this.text[this.at] === ' ' || this.text[this.at] === '\t') this.at += 1;
  }

  skipComment(): void {
    this.skipSpaces();
    if (this.text[this.at] === '#') {
      while (this.at < this.text.length && this.text[this.at] !== '\n' && this.text[this.at] !== '\r')
        this.at += 1;
    }
  }

  /** Spaces, comments and line breaks. */
  skipBlankLines(): void {
    for (;;) {
      const before = this.at;
      this.skipComment();
      if (this.text[this.at] === '\r') this.at += 1;
      if (this.text[this.at] === '\n') this.at += 1;
      if (this.text.charCodeAt(this.at) === 0xfeff) this.at += 1;
      if (this.at === before) return;
    }
  }

  keys(): { names: string[]; span: Span; last: Span } {
    const names: string[] = [];
    this.skipSpaces();
    const start = this.at;
    let last: Span = { start, end: start };
    for (;;) {
      this.skipSpaces();
      const keyStart = this.at;
      const quote = this.text[this.at];
      if (quote === '"' || quote === "'") this.string();
      else while (/[A-Za-z0-9_-]/.test(this.text[this.at] ?? '')) this.at += 1;
      last = { start: keyStart, end: this.at };
      const raw = this.text.slice(keyStart, this.at);
      names.push(quote === '"' || quote === "'" ? (decodeValue(raw) as string) : raw);
      const end = this.at;
      this.skipSpaces();
      if (this.text[this.at] !== '.') {
        this.at = end;
        this.skipSpaces();
        return { names, span: { start, end }, last };
      }
      this.at += 1;
    }
  }

  /** Skips one value; returns the spans of its elements when it is an array. */
  value(): Span[] | undefined {
    const char = this.text[this.at];
    if (char === '"' || char === "'") {
      this.string();
      return undefined;
    }
    if (char === '[') return this.array();
    if (char === '{') {
      this.inlineTable();
      return undefined;
    }
    while (this.at < this.text.length && !/[\s,\]}#]/.test(this.text[this.at]!)) {
      // Dates may hold one space between date and time.
      this.at += 1;
      if (this.text[this.at] === ' ' && /^ \d\d:/.test(this.text.slice(this.at, this.at + 4))) this.at += 1;
    }
    return undefined;
  }

  private array(): Span[] {
    const items: Span[] = [];
    this.at += 1;
    for (;;) {
      this.skipBlankLines();
      if (this.text[this.at] === ']') {
        this.at += 1;
        return items;
      }
      const start = this.at;
      this.value();
      if (this.at === start) throw new TomlReadError('an array could not be followed');
      items.push({ start, end: this.at });
      this.skipBlankLines();
      if (this.text[this.at] === ',') this.at += 1;
    }
  }

  private inlineTable(): void {
    this.at += 1;
    for (;;) {
      this.skipBlankLines();
      if (this.text[this.at] === '}') {
        this.at += 1;
        return;
      }
      const start = this.at;
      this.keys();
      if (this.at === start) throw new TomlReadError('an inline table could not be followed');
      this.skipSpaces();
      this.at += 1;
      this.skipBlankLines();
      this.value();
      this.skipBlankLines();
      if (this.text[this.at] === ',') this.at += 1;
    }
  }

  private string(): void {
    const quote = this.text[this.at]!;
    const triple = this.text.startsWith(quote.repeat(3), this.at);
    if (triple) {
      this.at += 3;
      for (;;) {
        if (this.at >= this.text.length) return;
        if (quote === '"' && this.text[this.at] === '\\') {
          this.at += 2;
          continue;
        }
        if (this.text.startsWith(quote.repeat(3), this.at)) {
          // Up to two quotes may end the content right before the closing three.
          let end = this.at + 3;
          while (this.text[end] === quote && end < this.at + 5) end += 1;
          this.at = end;
          return;
        }
        this.at += 1;
      }
    }
    this.at += 1;
    while (this.at < this.text.length && this.text[this.at] !== quote) {
      if (quote === '"' && this.text[this.at] === '\\') this.at += 1;
      this.at += 1;
    }
    this.at += 1;
  }
}
