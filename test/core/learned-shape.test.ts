import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constraintId } from '../../src/core/constraints.js';
import { hashString } from '../../src/core/identity/index.js';
import { Agent } from './support.js';

const ENOENT = { error: "ENOENT: no such file or directory, open '/srv/app/src/orders/parse.ts'" };
const NOT_FOUND = { error: 'Error: Could not find exact match for edit:\nconst retries = 4;' };

describe('constraint ids', () => {
  it('are the hash of their parts joined by U+0001, an absent part counting as empty', () => {
    const part = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.integer(), fc.constant(undefined));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        const joined = parts.map((value) => value ?? '').join('\u0001');
        expect(constraintId(parts)).toBe(`c_${hashString(joined)}`);
      }),
    );
  });

  it('stay what earlier versions wrote to disk, so a saved ban is still found and lifted by its id', () => {
    expect(constraintId(['call', 'read_file\u0000read\u0000src/a.ts', 'file_not_found', ''])).toBe(
      'c_8c6f7e794683e3ba',
    );
    expect(
      constraintId(['parameter', 'train', 'oom', JSON.stringify({ atLeast: { batch: 64 } }), 3, undefined]),
    ).toBe('c_328455cde9d997ba');
  });
});

/** The fields every ban starts with, and those that say how long it lasts, in their written order. */
const LEADING_FIELDS = ['id', 'type', 'scope', 'signature', 'actionClass'];
const LIFETIME_FIELDS = ['createdAt', 'expiresAt', 'strikes', 'probation', 'persistent'];

describe('learned constraints as stores and journals write them', () => {
  it('keeps a target ban’s fields in their written order, with none left undefined', () => {
    const agent = new Agent();
    const { record } = agent.call('read_file', { path: 'src/orders/parse.ts' }, ENOENT);
    const [ban] = record?.newConstraints ?? [];
    expect(Object.keys(ban ?? {})).toEqual([
      ...LEADING_FIELDS,
      'tool',
      'target',
      'blocksKinds',
      'meaning',
      'evidence',
      ...LIFETIME_FIELDS,
    ]);
    expect(Object.keys(ban?.evidence ?? {})).toEqual(['failures', 'firstAt', 'lastAt', 'lastError', 'calls']);
  });

  it('keeps a call ban’s fields in their written order, the text not found among them', () => {
    const agent = new Agent({ policy: { context: { repository: 'orders' } } });
    const edit = {
      path: 'src/orders/parse.ts',
      old_string: 'const retries = 4;',
      new_string: 'const retries = 3;',
    };
    const { record } = agent.call('edit_file', edit, NOT_FOUND);
    const ban = record?.newConstraints.find((constraint) => constraint.scope === 'call');
    expect(Object.keys(ban ?? {})).toEqual([
      ...LEADING_FIELDS,
      'tool',
      'callKey',
      'keyHash',
      'target',
      'meaning',
      'needle',
      'dependsOnWorkspace',
      'evidence',
      ...LIFETIME_FIELDS,
      'context',
    ]);
    expect(Object.values(ban ?? {})).not.toContain(undefined);
  });

  it('keeps a strategy ban’s fields in their written order, its calls being the targets it failed on', () => {
    const agent = new Agent();
    for (const name of ['parse', 'total', 'refund']) {
      const path = `src/orders/${name}.ts`;
      agent.call(
        'edit_file',
        { path, old_string: 'const retries = 4;', new_string: 'const retries = 3;' },
        NOT_FOUND,
      );
    }
    const strategy = agent.loop.getActiveConstraints().find((constraint) => constraint.scope === 'strategy');
    expect(Object.keys(strategy ?? {})).toEqual([...LEADING_FIELDS, 'evidence', ...LIFETIME_FIELDS]);
    expect(strategy?.evidence.calls).toEqual([
      'src/orders/parse.ts',
      'src/orders/total.ts',
      'src/orders/refund.ts',
    ]);
  });
});

describe('the context learned constraints keep', () => {
  it('is the repository for a relative path and the host too for an absolute one, however many bans come first', () => {
    const agent = new Agent({ policy: { context: { repository: 'github.com/acme/orders', host: 'ci-4' } } });
    const missing = (path: string) => ({ error: `ENOENT: no such file or directory, open '${path}'` });
    const contexts = ['src/a.ts', '/etc/orders/a.conf', 'src/b.ts', '/etc/orders/b.conf'].map((path) => {
      const { record } = agent.call('read_file', { path }, missing(path));
      return record?.newConstraints.find((constraint) => constraint.scope === 'target')?.context;
    });
    expect(contexts).toEqual([
      { repository: 'github.com/acme/orders' },
      { host: 'ci-4', repository: 'github.com/acme/orders' },
      { repository: 'github.com/acme/orders' },
      { host: 'ci-4', repository: 'github.com/acme/orders' },
    ]);
  });
});

describe('a learned ban shown in a verdict', () => {
  it('shows its last error without the credential the error held, in its evidence and its constraint alike', () => {
    const agent = new Agent();
    const path = 'deploy/.env.production';
    const error = `ENOENT: no such file or directory, open '${path}' (GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789)`;
    agent.call('read_file', { path }, { error });
    const verdict = agent.check('read_file', { path });
    const [violation] = verdict.violations;
    expect(verdict.verdict).toBe('block');
    expect(JSON.stringify(verdict)).not.toContain('ghp_');
    expect(violation?.constraint?.evidence.lastError).toBe(violation?.evidence.lastError);
    expect(violation?.evidence.lastError).toContain('GITHUB_TOKEN=[REDACTED]');
  });

  it('shows a last error redacted again as the reason shows it, when redacting it once left more to take out', () => {
    const agent = new Agent();
    const path = 'src/orders/client.ts';
    const error = `ENOENT: no such file or directory, open '${path}' Authorization: Basic dXNlcjpwYXNz c2VjcmV0`;
    agent.call('read_file', { path }, { error });
    const [violation] = agent.check('read_file', { path }).violations;
    expect(violation?.evidence.lastError).toMatch(/Authorization: \[REDACTED\]$/);
    expect(violation?.constraint?.evidence.lastError).toBe(violation?.evidence.lastError);
  });
});
