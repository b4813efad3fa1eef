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

export interface ConfigDocument {
  readonly parsed: ParsedJsonc;
  /** The client's map of servers, when the file has one. */
  readonly servers: ObjectNode | undefined;
  /** The keys leading to the map of servers (the first spelling when the file has none). */
  readonly serversPath: readonly string[];
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
): string {
  const original = reading.command.args;
  const prefix = wrapped.args.slice(0, wrapped.args.length - original.length);
  if (wrapped.args.slice(prefix.length).some((arg, index) => arg !== original[index])) {
    throw new Error('the wrapped arguments must end with the original ones');
  }
  const edits: Edit[] = [
    { start: reading.commandNode.start, end: reading.commandNode.end, text: JSON.stringify(wrapped.command) },
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
      text: prefix.map((arg) => JSON.stringify(arg) + separator).join(''),
    });
  } else if (argsNode !== undefined) {
    const indent = indentationAt(text, argsNode.start);
    edits.push({
      start: argsNode.start,
      end: argsNode.end,
      text: renderArray(prefix, indent, multilineEntry, style),
    });
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
): string {
  const argsNode = reading.argsNode;
  if (argsNode === undefined) throw new Error('a wrapped entry has arguments');
  const keep = upstream.args.length;
  const firstKept = argsNode.items[argsNode.items.length - keep];
  const edits: Edit[] = [
    {
      start: reading.commandNode.start,
      end: reading.commandNode.end,
      text: JSON.stringify(upstream.command),
    },
    firstKept === undefined || keep === 0
      ? { start: argsNode.start, end: argsNode.end, text: '[]' }
      : { start: argsNode.items[0]!.start, end: firstKept.start, text: '' },
  ];
  return applyEdits(text, edits);
}

function renderArray(items: readonly string[], indent: string, multiline: boolean, style: TextStyle): string {
  if (items.length === 0) return '[]';
  if (!multiline || !style.multilineArrays)
    return `[${items.map((item) => JSON.stringify(item)).join(', ')}]`;
  const inner = indent + style.indentUnit;
  const lines = items.map((item) => inner + JSON.stringify(item));
  return `[${style.eol}${lines.join(`,${style.eol}`)}${style.eol}${indent}]`;
}

/** Replaces the text of a node's span. */
export function replaceSpan(text: string, node: { start: number; end: number }, replacement: string): string {
  return text.slice(0, node.start) + replacement + text.slice(node.end);
}
