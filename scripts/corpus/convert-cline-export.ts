/**
 * Cline's and Roo Code's task exports (`cline_task_….md`, `roo_task_….md`, and the same export of
 * agents built on Roo Code): the task's messages as the extension sent them to the model, written as
 * Markdown. Each message opens with a line `**User:**` or `**Assistant:**` (the first line of the
 * file, or the first after a `---` line), and its text follows as the API message held it, the blocks
 * of a user message joined with blank lines. The messages are read as the task history's
 * (`convert-cline.ts`): a user message is parted again into the blocks the extension sent, each
 * opening with a tool's result header (`[read_file for 'a.ts'] Result:`), a note that a tool was not
 * executed, or the editor's details.
 */
import { convertClineMessages } from './convert-cline.js';
import type { ConvertedRun, RunSource } from './events.js';

const HEADER = /^\*\*(User|Assistant):\*\*$/;
const SEPARATOR = /^---$/;
/** Where the extension began another block of a user message. */
const BLOCK_START = /^(?:\[[a-z_]+(?:\s.*?)?\] (?:Result|Error)|Tool \[[a-z_]+\] was not executed because|<environment_details>)/;

export interface ExportMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | { type: 'text'; text: string }[];
}

/** The messages of an export, in order; the text before the first message is no part of any. */
export function exportMessages(markdown: string): ExportMessage[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const messages: { role: 'user' | 'assistant'; lines: string[] }[] = [];
  let lastWritten = -1;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] as string;
    const header = HEADER.exec(line);
    if (header && opensMessage(lines, at)) {
      const current = messages.at(-1);
      if (current) current.lines = withoutSeparator(current.lines);
      messages.push({ role: header[1] === 'User' ? 'user' : 'assistant', lines: [] });
      lastWritten = at;
      continue;
    }
    if (lastWritten >= 0) messages.at(-1)?.lines.push(line);
  }
  return messages.map(({ role, lines: body }) => {
    const text = trimBlank(body).join('\n');
    return role === 'user' ? { role, content: userBlocks(text) } : { role, content: text };
  });
}

/** A header line opens a message at the file's start or after a `---` line (blank lines between). */
function opensMessage(lines: readonly string[], at: number): boolean {
  let before = at - 1;
  while (before >= 0 && (lines[before] as string).trim() === '') before--;
  return before < 0 || SEPARATOR.test(lines[before] as string);
}

function trimBlank(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] as string).trim() === '') start++;
  while (end > start && (lines[end - 1] as string).trim() === '') end--;
  return lines.slice(start, end);
}

/** A message's lines without the `---` line that parts it from the next. */
function withoutSeparator(lines: readonly string[]): string[] {
  const kept = trimBlank(lines);
  return kept.length > 0 && SEPARATOR.test(kept.at(-1) as string) ? kept.slice(0, -1) : kept;
}

/** A user message's text parted again into the blocks the extension sent. */
function userBlocks(text: string): { type: 'text'; text: string }[] {
  const blocks: string[][] = [];
  for (const line of text.split('\n')) {
    if (blocks.length === 0 || BLOCK_START.test(line)) blocks.push([line]);
    else blocks.at(-1)?.push(line);
  }
  return blocks.map((block) => ({ type: 'text', text: trimBlank(block).join('\n') }));
}

/** Converts one exported task to the trace format. */
export function convertClineExport(markdown: string, source: RunSource, name: string, description: string): ConvertedRun {
  return convertClineMessages(exportMessages(markdown), source, name, description);
}
