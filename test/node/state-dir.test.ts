import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalHeadPath } from '../../src/audit/index.js';
import { defaultStateDir, stateLayout } from '../../src/node/index.js';

describe('state layout', () => {
  it('keeps state in .narrowing inside the project', () => {
    expect(defaultStateDir('/home/dev/api')).toBe(join('/home/dev/api', '.narrowing'));
  });

  it('names the state file, the journal and a head file the journal itself would find', () => {
    const layout = stateLayout(join('/home/dev/api', '.narrowing'));
    expect(layout).toEqual({
      dir: join('/home/dev/api', '.narrowing'),
      state: join('/home/dev/api', '.narrowing', 'state.json'),
      journal: join('/home/dev/api', '.narrowing', 'journal.jsonl'),
      journalHead: join('/home/dev/api', '.narrowing', 'journal.head.json'),
    });
    expect(journalHeadPath(layout.journal)).toBe(layout.journalHead);
  });
});
