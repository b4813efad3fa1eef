import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Constraint } from '../../src/core/types.js';
import { createFileStore, type StoreProblem } from '../../src/stores/file-store.js';
import { parseStateText } from '../../src/stores/schema.js';
import {
  callLookupKey,
  fileStamp,
  indexIsCurrent,
  lookUpLines,
  readIndexedConstraints,
  readIndexParts,
  stateIndexPath,
  targetLookupKey,
} from '../../src/stores/state-index.js';
import { missingFile, stateOf, temporaryDir } from './sample-state.js';

const NOW = 1_760_000_000_000;

/** A call ban on reading one file, as a hook learns it from `Read`. */
function callBan(index: number): Constraint {
  const target = `/srv/api/gen/missing-${index}.ts`;
  return {
    id: `c_${index.toString(16).padStart(16, '0')}`,
    type: 'banned_strategy',
    scope: 'call',
    signature: 'file_not_found',
    actionClass: 'file_read',
    tool: 'Read',
    callKey: `Read#${index.toString(16).padStart(16, '0')}`,
    keyHash: 2,
    target,
    meaning: 'target-missing',
    dependsOnWorkspace: false,
    evidence: {
      failures: 1,
      firstAt: NOW - 60_000,
      lastAt: NOW - 60_000 + index,
      lastError: 'File does not exist.',
      calls: [`Read {file_path: "${target}"}`],
    },
    createdAt: NOW - 60_000,
    expiresAt: Number.POSITIVE_INFINITY,
    strikes: 0,
    probation: false,
    persistent: true,
  };
}

/** What a build that keeps no index writes: the state as indented JSON of version 3. */
function indentedState(constraints: Constraint[]): string {
  const finite = constraints.map((c) => ({ ...c, expiresAt: NOW + 3_600_000 }));
  return `${JSON.stringify({ ...stateOf(finite), version: 3 }, null, 2)}\n`;
}

let dir: string;
let remove: () => void;
let path: string;
let problems: StoreProblem[];
beforeEach(() => {
  ({ dir, remove } = temporaryDir('narrowing-index-'));
  path = join(dir, 'state.json');
  problems = [];
});
afterEach(() => remove());

const open = (select?: { keys: readonly string[] }) =>
  createFileStore({
    path,
    debounceMs: 60_000,
    now: () => NOW,
    onProblem: (problem) => problems.push(problem),
    ...(select && { select }),
  });

async function written(constraints: Constraint[]): Promise<void> {
  const store = open();
  store.save(stateOf(constraints));
  await store.close();
}

describe('the state file and its index', () => {
  it('writes the state as a JSON object of this version, one constraint a line, with an index beside it', async () => {
    await written([callBan(1), callBan(2)]);
    const text = readFileSync(path, 'utf8');
    const parsed = parseStateText(text);
    expect(parsed.ok && parsed.state.constraints.map((c) => c.id)).toEqual([callBan(1).id, callBan(2).id]);
    expect(text.split('\n').filter((line) => line.startsWith('    {"id":'))).toHaveLength(2);
    expect(existsSync(stateIndexPath(path))).toBe(true);
  });

  it('loads only the constraints a call key and a target find when asked for them', async () => {
    await written([callBan(1), callBan(2), callBan(3), missingFile('src/config.ts', NOW)]);
    const byKey = open({ keys: [callLookupKey(callBan(2).callKey as string)] }).load();
    expect(byKey?.constraints.map((c) => c.id)).toEqual([callBan(2).id]);
    const byTarget = open({ keys: [targetLookupKey('src/config.ts')] }).load();
    expect(byTarget?.constraints.map((c) => c.id)).toEqual(['target-missing:src/config.ts']);
    expect(open({ keys: [] }).load()?.constraints ?? []).toEqual([]);
  });

  it('keeps a ban that never expires through the index', async () => {
    await written([callBan(7)]);
    const loaded = open({ keys: [callLookupKey(callBan(7).callKey as string)] }).load();
    expect(loaded?.constraints[0]?.expiresAt).toBe(Number.POSITIVE_INFINITY);
  });

  it('keeps every constraint of the file when a store that loaded a few saves a new one', async () => {
    await written([callBan(1), callBan(2), callBan(3)]);
    const store = open({ keys: [callLookupKey(callBan(2).callKey as string)] });
    store.load();
    store.save(stateOf([callBan(4)]));
    await store.close();
    const all = open().load();
    expect(all?.constraints.map((c) => c.id).sort()).toEqual([1, 2, 3, 4].map((i) => callBan(i).id).sort());
  });

  it('writes nothing when a store that loaded a few saves them back unchanged', async () => {
    await written([callBan(1), callBan(2)]);
    const before = fileStamp(path);
    const store = open({ keys: [callLookupKey(callBan(1).callKey as string)] });
    const loaded = store.load();
    store.save(loaded ?? stateOf([]));
    await store.close();
    expect(fileStamp(path)).toBe(before);
  });

  it('reads the whole file when the file changed after its index was written', async () => {
    await written([callBan(1), callBan(2)]);
    // Another build, which keeps no index, writes the file.
    writeFileSync(path, indentedState([callBan(1), callBan(2), callBan(3)]));
    const loaded = open({ keys: [callLookupKey(callBan(1).callKey as string)] }).load();
    expect(loaded?.constraints.map((c) => c.id).sort()).toEqual([1, 2, 3].map((i) => callBan(i).id).sort());
    expect(problems).toEqual([]);
  });

  it('writes the index anew when it reads a file that has none, so the next process reads a part', async () => {
    writeFileSync(path, indentedState([callBan(1), callBan(2)]));
    expect(open().load()?.constraints).toHaveLength(2);
    const index = readFileSync(stateIndexPath(path));
    const lines = lookUpLines(index, fileStamp(path), [callLookupKey(callBan(2).callKey as string)]);
    expect(lines).toHaveLength(1);
    const part = open({ keys: [callLookupKey(callBan(2).callKey as string)] }).load();
    expect(part?.constraints.map((c) => c.id)).toEqual([callBan(2).id]);
  });

  it('never trusts a line the index points to that is not a constraint: the whole file is read', async () => {
    await written([callBan(1), callBan(2)]);
    const index = readFileSync(stateIndexPath(path));
    // The same bytes, another meaning: the line is damaged without the file's size or stamp changing much.
    const text = readFileSync(path, 'utf8').replace('"scope":"call"', '"scope":"cal!"');
    const read = readIndexedConstraints(path, index, [callLookupKey(callBan(1).callKey as string)]);
    expect(read?.state?.constraints).toHaveLength(1);
    writeFileSync(path, text);
    expect(
      readIndexedConstraints(path, index, [callLookupKey(callBan(1).callKey as string)]),
    ).toBeUndefined();
  });

  it('reads any bytes as an index without throwing, and finds nothing but whole constraints in them', async () => {
    await written([callBan(1), callBan(2), callBan(3)]);
    const real = readFileSync(stateIndexPath(path));
    const stamp = fileStamp(path);
    const key = callLookupKey(callBan(2).callKey as string);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 512 }),
          // The real index with bytes flipped: a header that parses, records that point anywhere.
          fc
            .array(fc.tuple(fc.nat(real.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 })
            .map((flips) => {
              const copy = Uint8Array.from(real);
              for (const [at, value] of flips) copy[at] = value;
              return copy;
            }),
        ),
        (bytes) => {
          const lines = lookUpLines(bytes, stamp, [key]);
          expect(lines === undefined || Array.isArray(lines)).toBe(true);
          const read = readIndexedConstraints(path, bytes, [key]);
          for (const constraint of read?.state?.constraints ?? []) {
            expect([1, 2, 3].map((i) => callBan(i).id)).toContain(constraint.id);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds through the parts of the index a lookup reads what the whole index finds, for any keys', async () => {
    await written(Array.from({ length: 400 }, (_, index) => callBan(index)));
    const whole = readFileSync(stateIndexPath(path));
    const stamp = fileStamp(path);
    const fd = openSync(stateIndexPath(path), 'r');
    try {
      const key = fc.oneof(
        fc.nat(500).map((index) => callLookupKey(callBan(index).callKey as string)),
        fc.nat(500).map((index) => targetLookupKey(`/srv/api/gen/missing-${index}.ts`)),
        fc.string().map(targetLookupKey),
      );
      fc.assert(
        fc.property(fc.array(key, { maxLength: 6 }), (keys) => {
          const parts = readIndexParts(fd, whole.length, keys);
          expect(lookUpLines(parts, stamp, keys)).toEqual(lookUpLines(whole, stamp, keys));
        }),
        { numRuns: 200 },
      );
      expect(indexIsCurrent(readIndexParts(fd, whole.length, []), stamp)).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('reads a few records of a large index to look one key up', async () => {
    await written(Array.from({ length: 4_000 }, (_, index) => callBan(index)));
    const size = readFileSync(stateIndexPath(path)).length;
    const fd = openSync(stateIndexPath(path), 'r');
    try {
      const parts = readIndexParts(fd, size, [callLookupKey(callBan(7).callKey as string)]);
      const read = parts.reduce((count, byte) => count + (byte === 0 ? 0 : 1), 0);
      expect(size).toBeGreaterThan(100_000);
      expect(read).toBeLessThan(6_000);
    } finally {
      closeSync(fd);
    }
  });
});
