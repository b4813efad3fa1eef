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

/** An identifier, a date, a number: a value an error can only quote because this call passed it. */
const QUOTABLE = /^[\w.:/@-]{6,200}$/;
const MAX_QUOTED_VALUES = 32;

function collectQuotable(value: unknown, out: string[], depth: number): void {
  if (out.length >= MAX_QUOTED_VALUES) return;
  if (typeof value === 'string') {
    if (QUOTABLE.test(value) && /[a-z0-9]/i.test(value)) out.push(value);
    return;
  }
  if (depth === 0) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_QUOTED_VALUES)) collectQuotable(item, out, depth - 1);
  } else if (isRecord(value)) {
    for (const key of Object.keys(value).slice(0, MAX_QUOTED_VALUES))
      collectQuotable(value[key], out, depth - 1);
  }
}

/**
 * Whether an error names one of the call's own argument values as a whole word ("flight HAT030 not
 * available on date 2024-05-13", "Parameter `old_str` is required for command: str_replace"). Such an
 * error is about what the call asked for, so the same call fails the same way; a glitch of the
 * environment ("Sibling tool call errored") names none of them.
 */
export function quotesArguments(text: string, args: Readonly<Record<string, unknown>>): boolean {
  const values: string[] = [];
  collectQuotable(args, values, 3);
  for (const value of values) {
    let at = text.indexOf(value);
    while (at >= 0) {
      const before = text.charCodeAt(at - 1);
      const after = text.charCodeAt(at + value.length);
      if (!isWordCode(before) && !isWordCode(after)) return true;
      at = text.indexOf(value, at + 1);
    }
  }
  return false;
}

function isWordCode(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}
