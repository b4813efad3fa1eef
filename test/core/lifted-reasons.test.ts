import { afterEach, describe, expect, it, vi } from 'vitest';
import { Call } from '../../src/core/call-context.js';
import type { JournalEvent } from '../../src/core/types.js';
import { Agent, ENOENT } from './support.js';

const EDIT_NOT_FOUND = {
  text: 'Error: Could not find exact match for edit:\nconst retries = 3;',
  isError: true,
};

afterEach(() => {
  vi.restoreAllMocks();
});

/** An agent whose journal is kept in memory. */
function journaled(): { agent: Agent; events: JournalEvent[] } {
  const events: JournalEvent[] = [];
  const record = (event: JournalEvent): undefined => {
    events.push(event);
    return undefined;
  };
  const agent = new Agent({ audit: { record } });
  return { agent, events };
}

describe('what a success says about the bans it lifts', () => {
  it('words no reason for a failure seen once, which was never in force', () => {
    const { agent } = journaled();
    agent.call(
      'edit_file',
      { path: 'src/legacy/retry.ts', old_string: 'const retries = 3;', new_string: 'const retries = 5;' },
      EDIT_NOT_FOUND,
    );
    const described = vi.spyOn(Call.prototype, 'description', 'get');
    const { record } = agent.call(
      'edit_file',
      { path: 'src/orders/parse.ts', old_string: 'const limit = 10;', new_string: 'const limit = 11;' },
      'Successfully edited src/orders/parse.ts',
    );
    expect(record?.liftedConstraints).toEqual([]);
    expect(described).not.toHaveBeenCalled();
  });

  it('still says why when the success lifts a ban that was in force', () => {
    const { agent, events } = journaled();
    agent.call('read_file', { path: 'docs/notes.md' }, ENOENT('docs/notes.md'));
    agent.call('write_file', { path: 'docs/notes.md', content: '# Notes\n' }, 'Wrote docs/notes.md');
    agent.call('read_file', { path: 'docs/notes.md' }, '# Notes\n');
    const reasons = events.flatMap((event) => (event.type === 'constraint_lifted' ? [event.why] : []));
    expect(reasons).toEqual([
      'write_file {path: "docs/notes.md", content: "# Notes\\n"} succeeded on docs/notes.md',
    ]);
  });
});
