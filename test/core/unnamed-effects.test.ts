import { describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { Agent } from './support.js';

const BINARY = '/home/ctfplayer/ctf_files/feather';
const NOT_FOUND = { text: `Function Feather not found in ${BINARY}`, isError: true };
const DECOMPILED =
  'void load_feather_fs(long param_1) {\n  long lVar1;\n  lVar1 = *(long *)(param_1 + 8);\n  return;\n}\n';

describe('a tool whose name says neither that it reads nor what it changes, acting on a file it names', () => {
  it('lets a failed call on the file run again after another call of such a tool succeeded on it', () => {
    const agent = new Agent();
    agent.call('decompile_function', { path: BINARY, function: 'Feather' }, NOT_FOUND);
    expect(agent.check('decompile_function', { path: BINARY, function: 'Feather' }).verdict).toBe('block');
    agent.call('decompile_function', { path: BINARY, function: 'load_feather_fs' }, DECOMPILED);
    expect(agent.check('decompile_function', { path: BINARY, function: 'Feather' }).verdict).toBe('allow');
  });

  it('blocks the failed call again once its retry failed the same way', () => {
    const agent = new Agent();
    agent.call('decompile_function', { path: BINARY, function: 'Feather' }, NOT_FOUND);
    agent.call('decompile_function', { path: BINARY, function: 'load_feather_fs' }, DECOMPILED);
    agent.call('decompile_function', { path: BINARY, function: 'Feather' }, NOT_FOUND);
    expect(agent.check('decompile_function', { path: BINARY, function: 'Feather' }).verdict).toBe('block');
  });

  it('keeps the ban when a tool whose name says it reads read the file in between', () => {
    const agent = new Agent();
    agent.call('decompile_function', { path: BINARY, function: 'Feather' }, NOT_FOUND);
    agent.call('read_file', { path: BINARY }, 'ELF binary, 64-bit');
    expect(agent.check('decompile_function', { path: BINARY, function: 'Feather' }).verdict).toBe('block');
  });

  it('keeps the ban when such a tool succeeded on another file', () => {
    const agent = new Agent();
    agent.call('decompile_function', { path: BINARY, function: 'Feather' }, NOT_FOUND);
    agent.call(
      'decompile_function',
      { path: '/home/ctfplayer/ctf_files/other', function: 'main' },
      DECOMPILED,
    );
    expect(agent.check('decompile_function', { path: BINARY, function: 'Feather' }).verdict).toBe('block');
  });

  it('keeps the ban when the host says the tool only reads', () => {
    const agent = new Agent();
    const readOnly = { annotations: { readOnlyHint: true } };
    const run = (args: Record<string, unknown>, result: { text: string; isError?: boolean }) => {
      const proposal = toolCallToProposal('decompile_function', args, readOnly);
      agent.loop.checkProposal(proposal);
      const content = [{ type: 'text', text: result.text }];
      const outcome = toolCallToOutcome(
        'decompile_function',
        args,
        { content, isError: result.isError },
        readOnly,
      );
      agent.loop.recordOutcome({ ...outcome, proposal });
    };
    run({ path: BINARY, function: 'Feather' }, NOT_FOUND);
    run({ path: BINARY, function: 'load_feather_fs' }, { text: DECOMPILED });
    const again = toolCallToProposal('decompile_function', { path: BINARY, function: 'Feather' }, readOnly);
    expect(agent.loop.checkProposal(again).verdict).toBe('block');
  });
});
