/**
 * Finding one server's definition in a client's config text, reading what kind of server it is,
 * and rewriting its command line in place. Edits touch the `command` value and the start of the
 * `args` list only, so the rest of the entry (env, cwd, type, comments) keeps its exact bytes.
 */
import type { McpClient } from './clients.js';
import { keyPathLabel } from './config-locations.js';
import { ConfigFileError } from './errors.js';
import {
  type ArrayNode,
  type JsonNode,
  type Member,
  memberOf,
  type ObjectNode,
  type ParsedJsonc,
  parseJsonc,
  type ScalarNode,
} from './jsonc.js';
import type { StdioCommand } from './launcher.js';
import { indentationAt, startsLine, type TextStyle } from './text-style.js';
import { readTomlEntry, readTomlServers, TomlReadError, tomlString } from './toml-config.js';

export interface ConfigDocument {
  readonly parsed: ParsedJsonc;
  /** The client's map of servers, when the file has one. */
  readonly servers: ObjectNode | undefined;
  /** The keys leading to the map of servers (the first spelling when the file has none). */
  readonly serversPath: readonly string[];
  /** Servers defined in a form that cannot be edited in place, with what to change by hand. */
  readonly entryProblems?: ReadonlyMap<string, string>;
}

/**
 * Reads a client's config; throws `ConfigFileError` when it is not one. The servers are found
 * under the first of `serversPaths` the file has (by default the client's top-level key).
 */
export function readConfigDocument(
  text: string,
  client: McpClient,
  label: string,
  serversPaths: readonly (readonly string[])[] = [[client.serversKey]],
): ConfigDocument {
  if (client.format === 'toml') return readTomlDocument(text, client, label);
  let parsed: ParsedJsonc;
  try {
    parsed = parseJsonc(text);
  } catch (error) {
    throw new ConfigFileError(
      `${label} is not valid JSON: ${(error as Error).message}. Fix it, then try again.`,
    );
  }
  if (parsed.root.kind !== 'object') {
    throw new ConfigFileError(
      `${label} does not hold a JSON object, so it is not a ${client.name} MCP config.`,
    );
  }
  for (const path of serversPaths) {
    let node: JsonNode = parsed.root;
    let found = true;
    for (const [index, key] of path.entries()) {
      const member: Member | undefined = node.kind === 'object' ? memberOf(node, key) : undefined;
      if (member === undefined) {
        found = false;
        break;
      }
      if (member.value.kind !== 'object') {
        const what = index === path.length - 1 ? 'an object of servers' : 'an object';
        throw new ConfigFileError(`${keyPathLabel(path.slice(0, index + 1))} in ${label} is not ${what}.`);
      }
      node = member.value;
    }
    if (found) return { parsed, servers: node as ObjectNode, serversPath: path };
  }
  return { parsed, servers: undefined, serversPath: serversPaths[0] ?? [client.serversKey] };
}

function readTomlDocument(text: string, client: McpClient, label: string): ConfigDocument {
  try {
    const { servers, problems } = readTomlServers(text);
    const root: ObjectNode = { kind: 'object', start: 0, end: text.length, members: [] };
    return {
      parsed: { root, hasComments: false },
      servers: servers && {
        ...servers,
        members: [...servers.members, ...[...problems.keys()].map(problemMember)],
      },
      serversPath: [client.serversKey],
      entryProblems: problems,
    };
  } catch (error) {
    if (!(error instanceof TomlReadError)) throw error;
    throw new ConfigFileError(`${label} is not valid TOML: ${error.message}. Fix it, then try again.`);
  }
}

/** A server that cannot be edited is still listed (and found), with an empty definition. */
function problemMember(key: string): Member {
  const at = { start: 0, end: 0 };
  return { key, keySpan: at, value: { kind: 'object', members: [], ...at } };
}

/**
 * The entry node of a server definition saved on its own (a record's original or wrapped entry):
 * a JSON object, or a TOML `[mcp_servers.<name>]` table. `undefined` when it is neither.
 */
export function parseEntryText(text: string, client: McpClient): JsonNode | undefined {
  if (client.format === 'toml') return readTomlEntry(text);
  try {
    return parseJsonc(text).root;
  } catch {
    return undefined;
  }
}

export function serverNames(document: ConfigDocument): string[] {
  return [...new Set(document.servers?.members.map((member) => member.key) ?? [])];
}

export function findServer(document: ConfigDocument, name: string): Member | undefined {
  return document.servers ? memberOf(document.servers, name) : undefined;
}

export type EntryReading =
  | {
      readonly kind: 'stdio';
      readonly entry: ObjectNode;
      readonly command: StdioCommand;
      readonly commandNode: ScalarNode;
      readonly commandMember: Member;
      readonly argsNode: ArrayNode | undefined;
      readonly hasCwd: boolean;
    }
  | { readonly kind: 'remote'; readonly url: string | undefined }
  | { readonly kind: 'invalid'; readonly problem: string };

const URL_KEYS = ['url', 'httpUrl', 'serverUrl'];
const REMOTE_TYPES = new Set(['http', 'sse', 'streamable-http', 'streamableHttp']);

export function readEntry(node: JsonNode): EntryReading {
  if (node.kind !== 'object') return { kind: 'invalid', problem: 'its definition is not an object' };
  const commandMember = memberOf(node, 'command');
  if (commandMember === undefined) {
    const url = URL_KEYS.map((key) => memberOf(node, key)?.value).find((value) => value?.kind === 'string');
    const type = memberOf(node, 'type')?.value;
    const remoteType = type?.kind === 'string' && REMOTE_TYPES.has(type.value as string);
    if (url !== undefined || remoteType) {
      return { kind: 'remote', url: url ? ((url as ScalarNode).value as string) : undefined };
    }
    return { kind: 'invalid', problem: 'it has no "command" to run' };
  }
  const commandNode = commandMember.value;
  if (commandNode.kind !== 'string' || (commandNode.value as string).length === 0) {
    return { kind: 'invalid', problem: 'its "command" is not a non-empty string' };
  }
  const argsValue = memberOf(node, 'args')?.value;
  let argsNode: ArrayNode | undefined;
  if (argsValue !== undefined) {
    if (argsValue.kind !== 'array' || argsValue.items.some((item) => item.kind !== 'string')) {
      return { kind: 'invalid', problem: 'its "args" is not a list of strings' };
    }
    argsNode = argsValue;
  }
  const args = argsNode?.items.map((item) => (item as ScalarNode).value as string) ?? [];
  return {
    kind: 'stdio',
    entry: node,
    command: { command: commandNode.value as string, args },
    commandNode,
    commandMember,
    argsNode,
    hasCwd: memberOf(node, 'cwd') !== undefined,
  };
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/**
 * Rewrites a stdio entry to run `wrapped`, whose arguments must end with the entry's own. The new
 * arguments go in front of the existing ones, in the layout the list already has.
 */
export function rewriteCommand(
  text: string,
  reading: Extract<EntryReading, { kind: 'stdio' }>,
  wrapped: StdioCommand,
  style: TextStyle,
  format: McpClient['format'] = 'json',
): string {
  const quote = format === 'toml' ? tomlString : (value: string) => JSON.stringify(value);
  const original = reading.command.args;
  const prefix = wrapped.args.slice(0, wrapped.args.length - original.length);
  if (wrapped.args.slice(prefix.length).some((arg, index) => arg !== original[index])) {
    throw new Error('the wrapped arguments must end with the original ones');
  }
  const edits: Edit[] = [
    { start: reading.commandNode.start, end: reading.commandNode.end, text: quote(wrapped.command) },
  ];
  const multilineEntry = startsLine(text, reading.commandMember.keySpan.start);
  const argsNode = reading.argsNode;
  const first = argsNode?.items[0];
  if (argsNode !== undefined && first !== undefined) {
    const separator = startsLine(text, first.start)
      ? `,${style.eol}${indentationAt(text, first.start)}`
      : ', ';
    edits.push({
      start: first.start,
      end: first.start,
      text: prefix.map((arg) => quote(arg) + separator).join(''),
    });
  } else if (argsNode !== undefined) {
    const indent = indentationAt(text, argsNode.start);
    edits.push({
      start: argsNode.start,
      end: argsNode.end,
      text: renderArray(prefix, indent, multilineEntry, style, quote),
    });
  } else if (format === 'toml') {
    // A key of its own on the line after the command's (after any comment that ends that line).
    const lineBreak = /\r?\n|$/.exec(text.slice(reading.commandNode.end))!;
    const at = reading.commandNode.end + lineBreak.index;
    const indent = indentationAt(text, reading.commandMember.keySpan.start);
    edits.push({ start: at, end: at, text: `${style.eol}${indent}args = [${prefix.map(quote).join(', ')}]` });
  } else {
    const indent = indentationAt(text, reading.commandMember.keySpan.start);
    const gap = multilineEntry ? `${style.eol}${indent}` : ' ';
    edits.push({
      start: reading.commandNode.end,
      end: reading.commandNode.end,
      text: `,${gap}"args": ${renderArray(prefix, indent, multilineEntry, style)}`,
    });
  }
  return applyEdits(text, edits);
}

/**
 * Undoes a wrapping without a saved original: the command becomes the upstream command again and
 * the arguments before the upstream's own are removed, leaving the rest of the list as it is.
 */
export function restoreCommand(
  text: string,
  reading: Extract<EntryReading, { kind: 'stdio' }>,
  upstream: StdioCommand,
  format: McpClient['format'] = 'json',
): string {
  const argsNode = reading.argsNode;
  if (argsNode === undefined) throw new Error('a wrapped entry has arguments');
  const keep = upstream.args.length;
  const firstKept = argsNode.items[argsNode.items.length - keep];
  const edits: Edit[] = [
    {
      start: reading.commandNode.start,
      end: reading.commandNode.end,
      text: format === 'toml' ? tomlString(upstream.command) : JSON.stringify(upstream.command),
    },
    firstKept === undefined || keep === 0
      ? { start: argsNode.start, end: argsNode.end, text: '[]' }
      : { start: argsNode.items[0]!.start, end: firstKept.start, text: '' },
  ];
  return applyEdits(text, edits);
}

function renderArray(
  items: readonly string[],
  indent: string,
  multiline: boolean,
  style: TextStyle,
  quote: (value: string) => string = (value) => JSON.stringify(value),
): string {
  if (items.length === 0) return '[]';
  if (!multiline || !style.multilineArrays) return `[${items.map(quote).join(', ')}]`;
  const inner = indent + style.indentUnit;
  const lines = items.map((item) => inner + quote(item));
  return `[${style.eol}${lines.join(`,${style.eol}`)}${style.eol}${indent}]`;
}

/** Replaces the text of a node's span. */
export function replaceSpan(text: string, node: { start: number; end: number }, replacement: string): string {
  return text.slice(0, node.start) + replacement + text.slice(node.end);
}
