/**
 * Adding members and array items to a JSON (or JSONC) text without touching a byte of what is
 * already there: each addition is an insertion at an offset, laid out like the text around it, and
 * can be taken out again by the same offsets.
 */
import { type ArrayNode, type JsonNode, memberOf, type ObjectNode, parseJsonc } from './jsonc.js';
import { detectStyle, indentationAt, startsLine } from './text-style.js';

/** Text put in at `at`, an offset of the text before any insertion. */
export interface Insertion {
  readonly at: number;
  readonly text: string;
}

/**
 * The insertion that adds `members` (skipping keys the object has) as the object's last members,
 * laid out like its other members; undefined when there is nothing to add.
 */
export function addMembers(
  text: string,
  node: ObjectNode,
  members: readonly (readonly [string, unknown])[],
): Insertion | undefined {
  const { indentUnit: unit, eol } = detectStyle(text);
  const added = members.filter(([key]) => memberOf(node, key) === undefined);
  if (added.length === 0) return undefined;
  const last = node.members[node.members.length - 1];
  if (last === undefined) {
    const outer = indentationAt(text, node.start);
    const inner = outer + unit;
    const body = added
      .map(([key, value]) => `${inner}${JSON.stringify(key)}: ${render(value, inner, unit, eol)}`)
      .join(`,${eol}`);
    return { at: node.start + 1, text: `${eol}${body}${eol}${outer}` };
  }
  const multiline = startsLine(text, last.keySpan.start);
  const indent = multiline ? indentationAt(text, last.keySpan.start) : '';
  const valueIndent = multiline ? indent : indentationAt(text, node.start);
  const separator = multiline ? `${eol}${indent}` : ' ';
  const rendered = added.map(
    ([key, value]) => `${separator}${JSON.stringify(key)}: ${render(value, valueIndent, unit, eol)}`,
  );
  const comma = trailingComma(text, last.value.end, node.end - 1);
  return comma === undefined
    ? { at: last.value.end, text: `,${rendered.join(',')}` }
    : { at: comma + 1, text: `${rendered.join(',')},` };
}

/** The insertion that adds `items` at the end of an array, laid out like its other items. */
export function addItems(text: string, node: ArrayNode, items: readonly unknown[]): Insertion {
  const { indentUnit: unit, eol } = detectStyle(text);
  const last: JsonNode | undefined = node.items[node.items.length - 1];
  if (last === undefined) {
    const outer = indentationAt(text, node.start);
    const inner = outer + unit;
    const body = items.map((item) => `${inner}${render(item, inner, unit, eol)}`).join(`,${eol}`);
    return { at: node.start + 1, text: `${eol}${body}${eol}${outer}` };
  }
  const multiline = startsLine(text, last.start);
  const indent = multiline ? indentationAt(text, last.start) : '';
  const rendered = items.map((item) =>
    multiline ? `${eol}${indent}${render(item, indent, unit, eol)}` : ` ${JSON.stringify(item)}`,
  );
  const comma = trailingComma(text, last.end, node.end - 1);
  return comma === undefined
    ? { at: last.end, text: `,${rendered.join(',')}` }
    : { at: comma + 1, text: `${rendered.join(',')},` };
}

/** The root object of a JSON(C) text; throws when the text is not one. */
export function rootObject(text: string): ObjectNode {
  const { root } = parseJsonc(text);
  if (root.kind !== 'object') throw new Error('it is not a JSON object');
  return root;
}

/** The text with the insertions made (offsets of the original text). */
export function applyInsertions(text: string, insertions: readonly Insertion[]): string {
  let out = '';
  let from = 0;
  for (const { at, text: added } of [...insertions].sort((a, b) => a.at - b.at)) {
    out += text.slice(from, at) + added;
    from = at;
  }
  return out + text.slice(from);
}

/**
 * The text without the insertions: each where it was put, or else (the text was edited since) where
 * it occurs once. Undefined when one cannot be found for sure.
 */
export function removeInsertions(text: string, insertions: readonly Insertion[]): string | undefined {
  let shift = 0;
  const placed = [...insertions]
    .sort((a, b) => a.at - b.at)
    .map(({ at, text: added }) => {
      const start = at + shift;
      shift += added.length;
      return { start, added };
    });
  let out = text;
  for (const { start, added } of placed.reverse()) {
    const from = out.slice(start, start + added.length) === added ? start : out.indexOf(added);
    if (from === -1) return undefined;
    if (from !== start && out.indexOf(added, from + 1) !== -1) return undefined;
    out = out.slice(0, from) + out.slice(from + added.length);
  }
  return out;
}

function render(value: unknown, indent: string, unit: string, eol: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `${eol}${indent}`);
}

/** The offset of a comma after the last member or item (JSONC allows one), if there is one. */
function trailingComma(text: string, from: number, to: number): number | undefined {
  const between = text.slice(from, to);
  const comma = between.search(/^\s*,/) === 0 ? between.indexOf(',') : -1;
  return comma === -1 ? undefined : from + comma;
}
