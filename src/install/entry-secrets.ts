/**
 * A saved server entry holds no secret. Before `wrap` keeps a copy of an entry, every value under a
 * secret-sounding key (`env.GITHUB_TOKEN`, a header's `Authorization`), every argument that follows
 * a secret-sounding flag (`--api-key`, `--password`) and every credential inside any other value (a
 * password in a URL, a provider key in an argument) is replaced in the text by a numbered marker,
 * `[REDACTED#1]`, `[REDACTED#2]`, … On `unwrap`, the real values are taken back from the entry in
 * the user's config, where they still are: the same key for keys, the wrapped command line after
 * `--` for the command and its arguments.
 */
import { isSecretKey, REDACTED, redactText } from '../core/secrets.js';
import type { McpClient } from './clients.js';
import { type JsonNode, nodeValue, parseJsonc, type Span } from './jsonc.js';
import type { StdioCommand } from './launcher.js';
import { parseTomlValue, TOML_SERVERS_KEY, tomlString } from './toml-config.js';

/** A server definition is a few hundred characters; a saved record holds two of them. */
export const MAX_ENTRY_CHARS = 64 * 1024;

const MARKER = /\[REDACTED(?:#\d+)?\]/g;
const HAS_MARKER = /\[REDACTED(?:#\d+)?\]/;
/** `${GITHUB_TOKEN}`, `${env:API_KEY}`, `${input:token}`, `$TOKEN`: a reference that the client expands, not a secret. */
const REFERENCE = /^(?:\$\{[^{}\s]{1,200}\}|\$[A-Za-z_]\w{0,200})$/;
/** A flag such as `--api-key` or `--password`, whose next argument is the secret. */
const FLAG = /^--?[A-Za-z][\w-]*$/;

type Path = readonly (string | number)[];

interface Leaf {
  readonly path: Path;
  readonly value: string;
  /** Where its literal is in the text, when the reader tells. */
  readonly span?: Span;
}

export interface MaskedEntry {
  /** The entry's text with its secrets replaced by markers. */
  readonly text: string;
  /**
   * Whether nothing secret is left in `text`. `false` when a credential sits where no value holds
   * it (a comment) or in a form the text does not spell out literally: such an entry is not saved.
   */
  readonly complete: boolean;
}

/** The values of the live entry that masked values are taken back from. */
export interface LiveEntry {
  /** The entry in the config now, as plain values. */
  readonly value: unknown;
  /** The server command the wrapped entry runs after `--`: the original command and arguments. */
  readonly upstream?: StdioCommand | undefined;
}

export interface FilledEntry {
  readonly text: string;
  /** Where a masked value could not be found in the live entry, as `env.GITHUB_TOKEN` or `args[3]`. */
  readonly unfilled: readonly string[];
}

/** The plain value of a server entry saved on its own (a JSON object, or one TOML server table). */
export function entryValue(text: string, client: McpClient): unknown {
  try {
    if (client.format !== 'toml') return nodeValue(parseJsonc(text).root);
    const servers = parseTomlValue(text)[TOML_SERVERS_KEY];
    if (servers === null || typeof servers !== 'object') return undefined;
    const names = Object.keys(servers);
    return names.length === 1 ? (servers as Record<string, unknown>)[names[0]!] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `text` (one server entry) with every secret replaced by a numbered marker. An entry longer than
 * `MAX_ENTRY_CHARS` is not a hand-written server definition: it is never saved, so it is only redacted.
 */
export function maskEntry(text: string, client: McpClient): MaskedEntry {
  const entry = text.length > MAX_ENTRY_CHARS ? undefined : readEntryLeaves(text, client);
  if (entry === undefined) return { text: redactText(text), complete: false };
  let next = 1;
  const number = (masked: string) => masked.replace(MARKER, () => `[REDACTED#${next++}]`);
  const out = rewriteLeaves(text, client, entry.leaves, (leaf) => {
    const masked = maskedLeaf(leaf, entry.value);
    return masked === leaf.value ? undefined : number(masked);
  });
  return { text: out, complete: isMasked(out, client, maskedValue(entry.value, entry.value)) };
}

/**
 * `masked` with each marked value replaced by the live entry's value at the same place. A value
 * the live entry no longer holds there stays masked and is listed in `unfilled`.
 */
export function fillEntry(masked: string, client: McpClient, live: LiveEntry): FilledEntry {
  const entry = readEntryLeaves(masked, client);
  if (entry === undefined) return { text: masked, unfilled: ['the saved entry'] };
  const unfilled: string[] = [];
  const text = rewriteLeaves(masked, client, entry.leaves, (leaf) => {
    if (!HAS_MARKER.test(leaf.value)) return undefined;
    const real = liveValue(live, leaf.path);
    if (typeof real === 'string' && masksTo(leaf, real, liveContext(live))) return real;
    const moved = movedArgument(live, leaf, entry.value);
    if (moved !== undefined) return moved;
    unfilled.push(pathLabel(leaf.path));
    return undefined;
  });
  return { text, unfilled };
}

interface EntryLeaves {
  readonly value: unknown;
  /** The entry's strings in the order the text has them. */
  readonly leaves: readonly Leaf[];
}

function readEntryLeaves(text: string, client: McpClient): EntryLeaves | undefined {
  if (client.format === 'toml') {
    const value = entryValue(text, client);
    return value === undefined ? undefined : { value, leaves: valueLeaves(value) };
  }
  try {
    const { root } = parseJsonc(text);
    return { value: nodeValue(root), leaves: nodeLeaves(root) };
  } catch {
    return undefined;
  }
}

/**
 * `text` with the strings `replace` gives a new value for rewritten in place: through their offsets
 * in JSON, through their literal (which markers make unique) in TOML, whose reader has no offsets
 * for every value. `spell` writes the new literal, in the quoting of the old one by default.
 */
function rewriteLeaves(
  text: string,
  client: McpClient,
  all: readonly Leaf[],
  replace: (leaf: Leaf) => string | undefined,
  spell: (value: string, quote: (value: string) => string) => string = (value, quote) => quote(value),
): string {
  const edits: { span: Span; text: string }[] = [];
  let out = text;
  for (const leaf of all) {
    const value = replace(leaf);
    if (value === undefined) continue;
    if (leaf.span !== undefined) {
      edits.push({ span: leaf.span, text: spell(value, JSON.stringify) });
      continue;
    }
    for (const form of literalForms(leaf.value, client)) {
      if (!out.includes(form.literal)) continue;
      out = out.split(form.literal).join(spell(value, form.quote));
      break;
    }
  }
  for (const edit of edits.sort((a, b) => b.span.start - a.span.start)) {
    out = out.slice(0, edit.span.start) + edit.text + out.slice(edit.span.end);
  }
  return out;
}

/** Whether two masked entries hold the same values, whatever numbers their markers carry. */
export function sameMaskedValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(unnumbered(a)) === JSON.stringify(unnumbered(b));
}

/** The value with every marker written as the plain `[REDACTED]`, for comparisons. */
export function unnumbered(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(MARKER, REDACTED);
  if (Array.isArray(value)) return value.map(unnumbered);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, unnumbered(item)]));
  }
  return value;
}

function maskedLeaf(leaf: Leaf, entry: unknown): string {
  const key = leaf.path[leaf.path.length - 1];
  if (leaf.value === '' || REFERENCE.test(leaf.value) || HAS_MARKER.test(leaf.value)) {
    return redactText(leaf.value);
  }
  if (typeof key === 'string' && isSecretKey(key)) return REDACTED;
  if (typeof key === 'number' && key > 0) {
    const before = valueAt(entry, [...leaf.path.slice(0, -1), key - 1]);
    if (typeof before === 'string' && FLAG.test(before) && isSecretKey(before)) return REDACTED;
  }
  return redactText(leaf.value);
}

/** Whether `real`, at the leaf's place in the live entry, masks to what the saved entry holds there. */
function masksTo(leaf: Leaf, real: string, live: unknown): boolean {
  return maskedLeaf({ path: leaf.path, value: real }, live) === leaf.value.replace(MARKER, REDACTED);
}

/** The live entry as the original was: the command line is the one after `--`. */
function liveContext(live: LiveEntry): unknown {
  if (live.upstream === undefined || live.value === null || typeof live.value !== 'object') return live.value;
  return { ...live.value, command: live.upstream.command, args: live.upstream.args };
}

/**
 * Whether `text` reads as `expected` (the entry with its values masked, so no key or other value
 * was caught by a replacement), every value in it is masked, and nothing outside them is a secret.
 */
function isMasked(text: string, client: McpClient, expected: unknown): boolean {
  const entry = readEntryLeaves(text, client);
  if (entry === undefined || !sameMaskedValue(entry.value, expected)) return false;
  for (const leaf of entry.leaves) {
    if (maskedLeaf(leaf, entry.value).replace(MARKER, REDACTED) !== leaf.value.replace(MARKER, REDACTED))
      return false;
  }
  // Outside the values (comments, keys), with every value written as 0, the redactor finds nothing.
  const outside = rewriteLeaves(
    text,
    client,
    entry.leaves,
    (leaf) => leaf.value,
    () => '0',
  );
  return redactText(outside) === outside;
}

/** `value` with each string masked as `maskEntry` masks it. */
function maskedValue(value: unknown, entry: unknown, path: Path = []): unknown {
  if (typeof value === 'string') return maskedLeaf({ path, value }, entry);
  if (Array.isArray(value)) return value.map((item, index) => maskedValue(item, entry, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, maskedValue(item, entry, [...path, key])]),
    );
  }
  return value;
}

function liveValue(live: LiveEntry, path: Path): unknown {
  const [first, index] = path;
  if (live.upstream !== undefined && first === 'command' && path.length === 1) return live.upstream.command;
  if (live.upstream !== undefined && first === 'args' && typeof index === 'number' && path.length === 2) {
    return live.upstream.args[index];
  }
  return valueAt(live.value, path);
}

/**
 * The upstream argument a masked argument became when arguments were added or removed before it:
 * the one argument that masks to the same text, or that follows the same secret flag.
 */
function movedArgument(live: LiveEntry, leaf: Leaf, entry: unknown): string | undefined {
  const [first, index] = leaf.path;
  const args = live.upstream?.args;
  if (args === undefined || first !== 'args' || typeof index !== 'number' || leaf.path.length !== 2) {
    return undefined;
  }
  const saved = leaf.value.replace(MARKER, REDACTED);
  const flag = valueAt(entry, ['args', index - 1]);
  const found = args.filter((arg, at) =>
    saved === REDACTED
      ? typeof flag === 'string' && FLAG.test(flag) && isSecretKey(flag) && args[at - 1] === flag
      : redactText(arg) === saved,
  );
  return found.length === 1 ? found[0] : undefined;
}

function valueAt(value: unknown, path: Path): unknown {
  let at = value;
  for (const step of path) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, step)) return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at;
}

function valueLeaves(value: unknown, path: Path = []): Leaf[] {
  if (typeof value === 'string') return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => valueLeaves(item, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => valueLeaves(item, [...path, key]));
  }
  return [];
}

function nodeLeaves(node: JsonNode, path: Path = []): Leaf[] {
  if (node.kind === 'string') return [{ path, value: node.value as string, span: node }];
  if (node.kind === 'array') return node.items.flatMap((item, index) => nodeLeaves(item, [...path, index]));
  if (node.kind === 'object') {
    return node.members.flatMap((member) => nodeLeaves(member.value, [...path, member.key]));
  }
  return [];
}

interface LiteralForm {
  /** How the text spells the value. */
  readonly literal: string;
  /** How the text spells another value in the same quoting. */
  readonly quote: (value: string) => string;
}

/** The ways a config of this format can spell `value` as a string literal. */
function literalForms(value: string, client: McpClient): LiteralForm[] {
  if (client.format !== 'toml') return [{ literal: JSON.stringify(value), quote: JSON.stringify }];
  const forms: LiteralForm[] = [];
  try {
    forms.push({ literal: tomlString(value), quote: tomlString });
  } catch {
    // A lone surrogate: TOML cannot hold it, so the text does not spell it this way.
  }
  if (!/['\r\n]/.test(value)) {
    forms.push({
      literal: `'${value}'`,
      quote: (other) => (/['\r\n]/.test(other) ? tomlString(other) : `'${other}'`),
    });
  }
  return forms;
}

function pathLabel(path: Path): string {
  return path
    .map((step, index) =>
      typeof step === 'number'
        ? `[${step}]`
        : /^[A-Za-z_]\w*$/.test(step)
          ? index === 0
            ? step
            : `.${step}`
          : `[${JSON.stringify(step)}]`,
    )
    .join('');
}
