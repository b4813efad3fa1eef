/**
 * Error messages often quote the agent's own arguments: "String to replace not found in file.
 * String: <old_string>". Words inside such a quote are the agent's, not the tool's verdict — an
 * old_string that mentions `401` or "unauthorized" must not read as a permission error — so the
 * argument values are blanked out of the text before it is matched.
 */
import { isRecord } from './action-classes.js';

/** Shorter values are ordinary words ("main", "README.md") that the verdict itself may use. */
const MIN_ECHO_LENGTH = 12;
const MAX_VALUES = 8;
const MAX_VALUE_LENGTH = 4000;
const MAX_WORDS = 400;

function collect(value: unknown, out: string[], depth: number): void {
  if (out.length >= MAX_VALUES) return;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.length >= MIN_ECHO_LENGTH && trimmed.length <= MAX_VALUE_LENGTH) out.push(trimmed);
    return;
  }
  if (depth === 0) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_VALUES)) collect(item, out, depth - 1);
  } else if (isRecord(value)) {
    for (const key of Object.keys(value).slice(0, 32)) collect(value[key], out, depth - 1);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The text with every quote of an argument value blanked; whitespace inside a quote may differ. */
export function withoutEchoes(text: string, args: Readonly<Record<string, unknown>>): string {
  const values: string[] = [];
  collect(args, values, 3);
  let out = text;
  for (const value of values) {
    const words = value.split(/\s+/);
    const first = words[0] ?? '';
    if (!out.includes(first)) continue;
    if (words.length === 1) {
      out = out.split(value).join(' ');
    } else if (words.length <= MAX_WORDS) {
      out = out.replace(new RegExp(words.map(escapeRegExp).join('\\s+'), 'g'), ' ');
    }
  }
  return out;
}
