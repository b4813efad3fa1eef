import { describe, expect, it } from 'vitest';
import { replayTrace } from '../../src/replay/replay.js';
import type { TraceEvent } from '../../src/trace/types.js';

const npmrc = '/home/dev/shop/.npmrc';
const notFound = { isError: true, content: `Error: File not found: ${npmrc}` };

function call(tool: string, args: Record<string, unknown>, result: object): TraceEvent {
  return { type: 'call', tool, args, result } as TraceEvent;
}

describe('a patch that adds a file the agent failed to read', () => {
  it('lets the patch run and the read after it, whatever key its host gives the patch under', () => {
    for (const key of ['input', 'patchText']) {
      const report = replayTrace([
        call('read', { filePath: npmrc }, notFound),
        call(
          'apply_patch',
          { [key]: `*** Begin Patch\n*** Add File: ${npmrc}\n+engine-strict=true\n*** End Patch` },
          { content: 'Success. Updated the following files:\nA .npmrc' },
        ),
        call('read', { filePath: npmrc }, { content: '1: engine-strict=true' }),
      ]);
      expect(report.steps.map((step) => step.verdict)).toEqual(['allow', 'allow', 'allow']);
    }
  });

  it('still finds a patch that updates a file known missing bound to fail', () => {
    const report = replayTrace([
      call('read', { filePath: npmrc }, notFound),
      call(
        'apply_patch',
        { patchText: `*** Begin Patch\n*** Update File: ${npmrc}\n@@\n-a\n+b\n*** End Patch` },
        { isError: true, content: `Failed to find file: ${npmrc}` },
      ),
    ]);
    expect(report.steps[1]?.verdict).toBe('block');
  });
});
