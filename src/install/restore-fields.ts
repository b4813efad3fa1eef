/**
 * Unwrapping an entry that was edited after wrapping: when its command line is still the one wrap
 * wrote, only the command and the argument list go back to the saved original's, so the edits made
 * elsewhere in the entry (an added variable in `env`, a `cwd`, a comment) stay.
 */
import type { McpClient } from './clients.js';
import { type FilledEntry, sameMaskedValue } from './entry-secrets.js';
import { type JsonNode, nodeValue } from './jsonc.js';
import { type EntryReading, parseEntryText, readEntry } from './server-entry.js';

export interface FieldRestore {
  /** The whole config text with the entry's command line restored. */
  readonly text: string;
  /** The entry's keys, other than the command line, whose value differs from the wrapped entry's. */
  readonly editedKeys: readonly string[];
}

type StdioReading = Extract<EntryReading, { kind: 'stdio' }>;

/** The saved entries, as the record has them (masked), and the current one masked alike. */
export interface SavedEntries {
  /** The original entry, its masked values filled back from the current entry where it has them. */
  readonly original: FilledEntry;
  readonly wrapped: string;
  readonly current: string;
  readonly client: McpClient;
}

/**
 * The config with the command line of `current` (an entry of `text`) put back from the record, or
 * `undefined` when the command line itself was edited since wrapping (nothing to tell which
 * command the user wants then), or when a secret of the original command line cannot be filled in.
 */
export function restoreWrappedFields(
  text: string,
  current: StdioReading,
  saved: SavedEntries,
): FieldRestore | undefined {
  const { client } = saved;
  const originalEntry = saved.original.text;
  const wrappedNode = parseEntryText(saved.wrapped, client);
  const originalNode = parseEntryText(originalEntry, client);
  const currentNode = parseEntryText(saved.current, client);
  const wrapped = wrappedNode && readEntry(wrappedNode);
  const original = originalNode && readEntry(originalNode);
  const masked = currentNode && readEntry(currentNode);
  if (wrapped?.kind !== 'stdio' || original?.kind !== 'stdio' || masked?.kind !== 'stdio') return undefined;
  if (current.argsNode === undefined || !sameMaskedValue(masked.command, wrapped.command)) return undefined;
  if (saved.original.unfilled.some((path) => /^(?:command|args)\b/.test(path))) return undefined;
  const edits: { start: number; end: number; text: string }[] = [
    {
      start: current.commandNode.start,
      end: current.commandNode.end,
      text: originalEntry.slice(original.commandNode.start, original.commandNode.end),
    },
  ];
  const args = current.argsNode;
  if (original.argsNode !== undefined) {
    const originalArgs = originalEntry.slice(original.argsNode.start, original.argsNode.end);
    edits.push({ start: args.start, end: args.end, text: originalArgs });
  } else if (/^\s*,\s*"args"\s*:\s*$/.test(text.slice(current.commandNode.end, args.start))) {
    // Wrap added the list right after the command: take it out again.
    edits.push({ start: current.commandNode.end, end: args.end, text: '' });
  } else if (
    client.format === 'toml' &&
    addedTomlArgs(text, current.commandNode.end, args.start) !== undefined
  ) {
    // Wrap added `args = […]` on the line after the command's: take that line out again.
    const from = addedTomlArgs(text, current.commandNode.end, args.start)!;
    edits.push({ start: from, end: args.end, text: '' });
  } else {
    edits.push({ start: args.start, end: args.end, text: '[]' });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return { text: out, editedKeys: editedKeys(wrappedNode!, currentNode!) };
}

/** Where the line break before an `args = ` line that directly follows the command's line starts. */
function addedTomlArgs(text: string, commandEnd: number, argsStart: number): number | undefined {
  const match = /^[^\r\n]*?(\r?\n[ \t]*args[ \t]*=[ \t]*)$/.exec(text.slice(commandEnd, argsStart));
  return match === null ? undefined : argsStart - match[1]!.length;
}

function editedKeys(wrapped: JsonNode, current: JsonNode): string[] {
  const before = nodeValue(wrapped) as Record<string, unknown>;
  const after = nodeValue(current) as Record<string, unknown>;
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  keys.delete('command');
  keys.delete('args');
  return [...keys].filter((key) => !sameMaskedValue(before[key], after[key]));
}
