import { describe, expect, it } from 'vitest';
import type { CallFacts } from '../../src/core/types.js';
import { WorldTracker } from '../../src/core/world.js';

const edit: CallFacts = { actionClass: 'edit', kind: 'mutate', targets: ['src/app.ts'] };
const build: CallFacts = { actionClass: 'exec', kind: 'exec', targets: ['npm run build'] };

describe('WorldTracker', () => {
  it('takes the same edit made twice in a row as changing nothing the second time', () => {
    const world = new WorldTracker();
    expect(world.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('mutate');
    expect(world.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('none');
    expect(world.effectOf(edit, 'edit_file#2', 'ok').kind).toBe('mutate');
  });

  it('takes a command rerun with the same output and nothing changed since as changing nothing', () => {
    const world = new WorldTracker();
    expect(world.effectOf(build, 'bash#b', 'out').kind).toBe('unknown');
    expect(world.effectOf(build, 'bash#b', 'out').kind).toBe('none');
    expect(world.effectOf(build, 'bash#b', 'other output').kind).toBe('unknown');
    world.effectOf(edit, 'edit_file#1', 'ok');
    expect(world.effectOf(build, 'bash#b', 'other output').kind).toBe('unknown');
  });

  it('remembers the last changes across a snapshot', () => {
    const world = new WorldTracker();
    world.effectOf(edit, 'edit_file#1', 'ok');
    world.effectOf(build, 'bash#b', 'out');
    const restored = new WorldTracker();
    restored.restore(JSON.parse(JSON.stringify(world.snapshot())));
    expect(restored.effectOf(build, 'bash#b', 'out').kind).toBe('none');
    expect(restored.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('none');
  });

  it('reads a snapshot that kept targets and commands as texts', () => {
    const restored = new WorldTracker();
    restored.restore({
      lastChange: [['src/app.ts', 'edit_file#1']],
      lastCommand: [['bash#b', { digest: 'out', generation: 3 }]],
      generation: 3,
    });
    expect(restored.effectOf(build, 'bash#b', 'out').kind).toBe('none');
    expect(restored.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('none');
  });

  it('takes a command the adapter says only looks as changing nothing', () => {
    const world = new WorldTracker();
    const status: CallFacts = { ...build, targets: ['git status'], changesNothing: true };
    expect(world.effectOf(status, 'bash#s', 'clean').kind).toBe('none');
    expect(world.effectOf({ ...status, changesNothing: false }, 'bash#s', 'clean').kind).toBe('unknown');
  });

  it('keeps what it knows when given something that is not a snapshot', () => {
    const world = new WorldTracker();
    world.effectOf(edit, 'edit_file#1', 'ok');
    world.restore(undefined);
    expect(world.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('none');
  });
});

describe('side effects through a service', () => {
  const cancel: CallFacts = {
    actionClass: 'api_call',
    kind: 'api',
    targets: ['reservation/ZFA04Y'],
    sideEffect: true,
    service: '',
  };

  it('takes a successful cancellation as a change of its service and of no file', () => {
    const effect = new WorldTracker().effectOf(cancel, 'cancel_reservation#1', '{"status": "cancelled"}');
    expect(effect).toMatchObject({ kind: 'outside', service: '', changedTargets: ['reservation/ZFA04Y'] });
  });

  it('takes a read-only call of the same service as changing nothing', () => {
    const read: CallFacts = {
      actionClass: 'file_read',
      kind: 'read',
      targets: ['reservation/ZFA04Y'],
      service: '',
    };
    expect(new WorldTracker().effectOf(read, 'get_reservation_details#1', '{}').kind).toBe('none');
  });

  it('takes a new record made through a service as a change of the service too', () => {
    const issue: CallFacts = {
      actionClass: 'file_create',
      kind: 'create',
      targets: ['octo/hello'],
      sideEffect: true,
      service: 'github',
    };
    expect(new WorldTracker().effectOf(issue, 'create_issue#1', '{"number": 7}')).toMatchObject({
      kind: 'create',
      service: 'github',
    });
  });
});
