/**
 * An error that carries JSON (a validation error listing its issues, an HTTP body, a response object
 * printed as it is) said in words: each issue's message with the field it is about, or the fields of
 * the object as `name: value`. A model reads "title: Required", not `[ { "code": "invalid_type", …`.
 */

/** Texts longer than this are not searched for JSON: only the head of an error is quoted anyway. */
const MAX_SCANNED_CHARS = 16 * 1024;
/** At most this many JSON values are rewritten in one text. */
const MAX_VALUES = 4;
/** At most this many messages or fields are said for one JSON value. */
const MAX_SAID = 6;
const MAX_DEPTH = 8;
/** A JSON object or array opens here: `{"`, `[{`, `["` (white space allowed between). */
const JSON_OPENING = /[[{]\s*["{[]/g;

/** `text` with every JSON object or array in it said in words; unchanged when it holds none. */
export function jsonInWords(text: string): string {
  if (text.length > MAX_SCANNED_CHARS || !/[[{]/.test(text)) return text;
  let out = '';
  let from = 0;
  let rewritten = 0;
  JSON_OPENING.lastIndex = 0;
  for (let match = JSON_OPENING.exec(text); match !== null; match = JSON_OPENING.exec(text)) {
    if (rewritten >= MAX_VALUES) break;
    const start = match.index;
    const end = closingIndex(text, start);
    if (end < 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, end + 1));
    } catch {
      continue;
    }
    const said = inWords(value);
    if (said === '') continue;
    out += `${text.slice(from, start)}${said}`;
    from = end + 1;
    JSON_OPENING.lastIndex = end + 1;
    rewritten++;
  }
  return rewritten === 0 ? text : out + text.slice(from);
}

/** Where the object or array opening at `start` closes, strings skipped; -1 when it does not. */
function closingIndex(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** The messages a value carries, or else its scalar fields; '' when it says nothing. */
function inWords(value: unknown): string {
  const messages: string[] = [];
  collectMessages(value, 0, messages);
  if (messages.length > 0) return unique(messages).slice(0, MAX_SAID).join('; ');
  const fields: string[] = [];
  collectFields(value, '', 0, fields);
  return unique(fields).slice(0, MAX_SAID).join(', ');
}

/** `message` strings of objects, each after the field (`path`) it is about when the object names one. */
function collectMessages(value: unknown, depth: number, into: string[]): void {
  if (depth > MAX_DEPTH || into.length >= MAX_SAID || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collectMessages(item, depth + 1, into);
    return;
  }
  const record = value as Record<string, unknown>;
  const message = record.message;
  if (typeof message === 'string' && message.trim() !== '') {
    const field = fieldName(record.path ?? record.field ?? record.param ?? record.loc);
    into.push(field === '' ? message.trim() : `${field}: ${message.trim()}`);
    return;
  }
  for (const key of Object.keys(record)) collectMessages(record[key], depth + 1, into);
}

function fieldName(path: unknown): string {
  if (typeof path === 'string') return path;
  if (Array.isArray(path) && path.every((part) => typeof part === 'string' || typeof part === 'number'))
    return path.join('.');
  return '';
}

/** Scalar fields as `name: value`, nested names joined by dots; empty strings and nulls left out. */
function collectFields(value: unknown, name: string, depth: number, into: string[]): void {
  if (depth > MAX_DEPTH || into.length >= MAX_SAID) return;
  if (typeof value === 'string') {
    if (value.trim() !== '') into.push(name === '' ? value.trim() : `${name}: ${value.trim()}`);
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    into.push(name === '' ? String(value) : `${name}: ${value}`);
  } else if (Array.isArray(value)) {
    for (const item of value) collectFields(item, name, depth + 1, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      collectFields(item, name === '' ? key : `${name}.${key}`, depth + 1, into);
    }
  }
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
