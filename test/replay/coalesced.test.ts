import { describe, expect, it } from 'vitest';
import { replayTrace } from '../../src/replay/replay.js';
import type { TraceEvent } from '../../src/trace/types.js';

const missing = { isError: true, content: "ENOENT: no such file or directory, open 'config/prod.yaml'" };

function call(turn: string, tool: string, args: Record<string, unknown>, result: object): TraceEvent {
  return { type: 'call', tool, args, result, turn } as TraceEvent;
}

describe('replay of identical calls in one turn', () => {
  it('records the duplicates of a failed call as coalesced, never as blocks', () => {
    const report = replayTrace([
      call('1', 'read_file', { path: 'config/prod.yaml' }, missing),
      call('1', 'read_file', { path: 'config/prod.yaml' }, missing),
      call('1', 'read_file', { path: 'config/prod.yaml' }, missing),
    ]);

    expect(report.steps.map((step) => step.verdict)).toEqual(['allow', 'coalesced', 'coalesced']);
    expect(report.steps[1]?.rule).toBe('in-flight-duplicate');
    expect(report.summary).toMatchObject({ calls: 3, allow: 1, block: 0, coalesced: 2 });
  });

  it('coalesces duplicates of a failed edit that differ only in the explanation written beside them', () => {
    const noMatch = { isError: true, content: 'The string to replace was not found in src/App.tsx' };
    const edit = { target_file: 'src/App.tsx', old_string: 'const x = 1;', new_string: 'const x = 2;' };
    const report = replayTrace([
      call('1', 'edit_file', { ...edit, explanation: 'Bump the constant' }, noMatch),
      call('1', 'edit_file', { ...edit, explanation: 'Update x to the new value' }, noMatch),
    ]);

    expect(report.steps.map((step) => step.verdict)).toEqual(['allow', 'coalesced']);
  });

  it('lets a duplicate of a successful read be judged as a call of its own', () => {
    const report = replayTrace([
      call('1', 'read_file', { path: 'README.md' }, { content: '# Project' }),
      call('1', 'read_file', { path: 'README.md' }, { content: '# Project' }),
    ]);

    expect(report.steps.map((step) => step.verdict)).toEqual(['allow', 'allow']);
    expect(report.summary.coalesced).toBeUndefined();
  });

  it('coalesces a duplicate of a successful change, whose effect would repeat', () => {
    const report = replayTrace([
      call('1', 'send_message', { channel: '#deploys', text: 'Release 4.2 is out.' }, { content: 'sent' }),
      call('1', 'send_message', { channel: '#deploys', text: 'Release 4.2 is out.' }, { content: 'sent' }),
    ]);

    expect(report.steps.map((step) => step.verdict)).toEqual(['allow', 'coalesced']);
  });

  it('leaves identical calls of different turns to the guard', () => {
    const report = replayTrace([
      call('1', 'read_file', { path: 'config/prod.yaml' }, missing),
      call('2', 'read_file', { path: 'config/prod.yaml' }, missing),
    ]);

    expect(report.steps.map((step) => step.verdict)).toEqual(['allow', 'block']);
  });

  it('reports a call the recording marks coalesced as coalesced when its twin is not in the trace', () => {
    const report = replayTrace([
      call('1', 'read_file', { path: 'config/prod.yaml' }, missing),
      { type: 'call', tool: 'read_file', args: { path: 'config/prod.yaml' }, coalesced: true },
    ]);

    expect(report.steps.map((step) => step.verdict)).toEqual(['allow', 'coalesced']);
    expect(report.summary).toMatchObject({ block: 0, coalesced: 1 });
  });
});
