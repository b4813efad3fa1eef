/**
 * The text of the state file: a JSON object of this version, one constraint (and one lifted mark)
 * per line. Any version reads it as the JSON it is; the line of each constraint is where the index
 * beside the file (see `state-index.ts`) points.
 */
import type { Constraint, LiftedMark, PersistedState } from '../core/types.js';
import { STATE_VERSION, toStoredConstraint } from './state-format.js';

// JSON has no Infinity, and a ban that never expires may well use it.
const INFINITE = 'Infinity';
const withInfinity = (_key: string, value: unknown) =>
  value === Number.POSITIVE_INFINITY ? INFINITE : value;

/** A state as the file store writes it: the text, and where each constraint's line is in it. */
export interface LaidOutState {
  readonly text: string;
  readonly constraints: readonly Constraint[];
  /** Byte offset and length of each constraint's line (without its comma), in `constraints`' order. */
  readonly spans: readonly (readonly [offset: number, length: number])[];
}

/**
 * The state file's text: a JSON object of this version, one constraint (and one lifted mark) per
 * line, so that each constraint's place in the file is known and the index can point to it.
 */
export function layOutState(state: PersistedState): LaidOutState {
  const constraints = state.constraints.map(toStoredConstraint);
  const head = `{\n  "version": ${STATE_VERSION},\n  "savedAt": ${JSON.stringify(state.savedAt)},\n  "constraints": [`;
  const parts: string[] = [head];
  const spans: [number, number][] = [];
  let offset = Buffer.byteLength(head);
  constraints.forEach((constraint, index) => {
    const prefix = index === 0 ? '\n    ' : ',\n    ';
    const line = JSON.stringify(constraint, withInfinity);
    offset += prefix.length;
    const length = Buffer.byteLength(line);
    spans.push([offset, length]);
    offset += length;
    parts.push(prefix, line);
  });
  parts.push(constraints.length === 0 ? '],\n  "lifted": [' : '\n  ],\n  "lifted": [');
  state.lifted.forEach((mark: LiftedMark, index) => {
    parts.push(index === 0 ? '\n    ' : ',\n    ', JSON.stringify({ id: mark.id, at: mark.at }));
  });
  parts.push(state.lifted.length === 0 ? ']\n}\n' : '\n  ]\n}\n');
  return { text: parts.join(''), constraints, spans };
}
