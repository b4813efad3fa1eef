import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addItems,
  addMembers,
  applyInsertions,
  removeInsertions,
  rootObject,
} from '../../src/install/json-insert.js';
import { memberOf } from '../../src/install/jsonc.js';

const key = fc.string({ minLength: 1, maxLength: 8 });
const value = fc.jsonValue({ maxDepth: 3 });
const settings = fc.record({
  members: fc.dictionary(key, value, { maxKeys: 6 }),
  indent: fc.constantFrom(0, 2, 4, '\t'),
  eol: fc.constantFrom('\n', '\r\n'),
  hooks: fc.option(
    fc.dictionary(fc.constantFrom('PreToolUse', 'Stop', 'Other'), fc.array(value, { maxLength: 3 })),
  ),
});

describe('insertions into a settings text', () => {
  it('add the hooks, keep every other value, and come out again to the same bytes', () => {
    fc.assert(
      fc.property(settings, ({ members, indent, eol, hooks }) => {
        const { hooks: _, ...rest } = members;
        const document = hooks === null ? rest : { ...rest, hooks };
        const text = `${JSON.stringify(document, null, indent).replace(/\n/g, eol)}${eol}`;
        const root = rootObject(text);
        const entries = { PreToolUse: [{ command: 'x hook claude-code' }], SessionStart: [{ command: 'y' }] };
        const insertions = [];
        const hooksMember = memberOf(root, 'hooks');
        if (hooksMember === undefined) insertions.push(addMembers(text, root, [['hooks', entries]])!);
        else if (hooksMember.value.kind === 'object') {
          const fresh: [string, unknown][] = [];
          for (const [event, items] of Object.entries(entries)) {
            const existing = memberOf(hooksMember.value, event);
            if (existing?.value.kind === 'array') insertions.push(addItems(text, existing.value, items));
            else if (existing === undefined) fresh.push([event, items]);
          }
          const added = addMembers(text, hooksMember.value, fresh);
          if (added) insertions.push(added);
        }
        const after = applyInsertions(text, insertions);
        const parsed = JSON.parse(after);
        for (const [name, item] of Object.entries(rest))
          expect(parsed[name]).toEqual(JSON.parse(JSON.stringify(item)));
        expect(parsed.hooks.PreToolUse.at(-1)).toEqual(entries.PreToolUse[0]);
        expect(removeInsertions(after, insertions)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
