import { describe, expect, it } from 'vitest';
import { Agent, ENOENT } from '../support.js';

const create = (path: string) => ({ path, content: 'export const defaults = { retries: 3 };\n' });
const created = (path: string) => `Successfully created ${path}`;

/** A tool said it created a file, and reading the file right after found nothing. */
function afterUnseenCreation(): Agent {
  const agent = new Agent();
  agent.call('create_file', create('src/config/defaults.ts'), created('src/config/defaults.ts'));
  agent.call('read_file', { path: 'src/config/defaults.ts' }, ENOENT('src/config/defaults.ts'));
  return agent;
}

describe('unseen-creation', () => {
  it('blocks reading another file the same tool reported creating, once one of its files was missing right after', () => {
    const agent = afterUnseenCreation();
    agent.call('create_file', create('src/config/schema.ts'), created('src/config/schema.ts'));
    const check = agent.check('read_file', { path: 'src/config/schema.ts' });
    expect(check).toMatchObject({ verdict: 'block', rule: 'unseen-creation' });
    expect(check.reason).toContain('src/config/defaults.ts was missing right after');
    expect(check.suggestion).toContain('Check where create_file writes');
  });

  it('blocks an edit of such a file too', () => {
    const agent = afterUnseenCreation();
    agent.call('create_file', create('src/config/schema.ts'), created('src/config/schema.ts'));
    expect(
      agent.check('edit_file', {
        path: 'src/config/schema.ts',
        old_string: 'retries: 3',
        new_string: 'retries: 5',
      }).rule,
    ).toBe('unseen-creation');
  });

  it('allows reading a created file while every creation so far was there afterwards', () => {
    const agent = new Agent();
    agent.call('create_file', create('src/config/defaults.ts'), created('src/config/defaults.ts'));
    agent.call('read_file', { path: 'src/config/defaults.ts' }, 'export const defaults = { retries: 3 };\n');
    agent.call('create_file', create('src/config/schema.ts'), created('src/config/schema.ts'));
    expect(agent.check('read_file', { path: 'src/config/schema.ts' }).verdict).toBe('allow');
  });

  it('takes no evidence from a file missing after a command that may have removed it', () => {
    const agent = new Agent();
    agent.call('create_file', create('src/config/defaults.ts'), created('src/config/defaults.ts'));
    agent.call('bash', { command: 'git clean -fd' }, 'Removing src/config/defaults.ts\n');
    agent.call('read_file', { path: 'src/config/defaults.ts' }, ENOENT('src/config/defaults.ts'));
    agent.call('create_file', create('src/config/schema.ts'), created('src/config/schema.ts'));
    expect(agent.check('read_file', { path: 'src/config/schema.ts' }).verdict).toBe('allow');
  });

  it('allows reading a file another tool created', () => {
    const agent = afterUnseenCreation();
    agent.call(
      'write_file',
      { file_path: 'src/config/schema.ts', content: 'export {};\n' },
      'Successfully wrote to src/config/schema.ts',
    );
    expect(agent.check('read_file', { path: 'src/config/schema.ts' }).verdict).toBe('allow');
  });

  it('allows the file again once a command may have made it', () => {
    const agent = afterUnseenCreation();
    agent.call('create_file', create('src/config/schema.ts'), created('src/config/schema.ts'));
    agent.call('bash', { command: 'cp build/generated/schema.ts src/config/schema.ts' }, '');
    expect(agent.check('read_file', { path: 'src/config/schema.ts' }).verdict).toBe('allow');
  });

  it('forgets files created before a new user message, which the user may have made by hand', () => {
    const agent = afterUnseenCreation();
    agent.call('create_file', create('src/config/schema.ts'), created('src/config/schema.ts'));
    agent.loop.newRun('user');
    expect(agent.check('read_file', { path: 'src/config/schema.ts' }).verdict).toBe('allow');
  });

  it('keeps what it learned about the tool in a resumed session, but not the files created before', () => {
    const first = afterUnseenCreation();
    first.call('create_file', create('src/config/schema.ts'), created('src/config/schema.ts'));
    const second = new Agent();
    second.loop.restore(JSON.parse(JSON.stringify(first.loop.snapshot())));
    expect(second.check('read_file', { path: 'src/config/schema.ts' }).verdict).toBe('allow');
    second.call('create_file', create('src/config/limits.ts'), created('src/config/limits.ts'));
    expect(second.check('read_file', { path: 'src/config/limits.ts' }).rule).toBe('unseen-creation');
  });

  it('can be turned off', () => {
    const agent = new Agent({ policy: { detectors: { unseenCreation: { enabled: false } } } });
    agent.call('create_file', create('src/config/defaults.ts'), created('src/config/defaults.ts'));
    agent.call('read_file', { path: 'src/config/defaults.ts' }, ENOENT('src/config/defaults.ts'));
    agent.call('create_file', create('src/config/schema.ts'), created('src/config/schema.ts'));
    expect(agent.check('read_file', { path: 'src/config/schema.ts' }).verdict).toBe('allow');
  });
});
