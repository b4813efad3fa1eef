import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberedLine } from '../../../src/core/detectors/index.js';
import { Agent } from '../support.js';

const FILE = '/workspace/curl__curl__8.5/lib/urlapi.c';
const replace = (old_str: string) => ({
  command: 'str_replace',
  path: FILE,
  old_str,
  new_str: 'return pattern_type;',
});
const notVerbatim = (old_str: string) => ({
  text: `ERROR:\nNo replacement was performed, old_str \`${old_str}\` did not appear verbatim in ${FILE}.`,
  isError: true,
});
const FIRST =
  'case TK_MATCH_CAPTURE:\n   316\t    case TK_MATCH_DONTCARE:\n   317\t      return pattern_type;';
const SECOND = 'switch(ast_id(pattern))\n   313\t  {\n   314\t    case TK_DONTCAREREF:';
const INSERTED = `The file ${FILE} has been edited. Here's the result of running \`cat -n\` on a snippet of the edited file:`;

function afterNumberedFailure(): Agent {
  const agent = new Agent();
  agent.call('str_replace_editor', replace(FIRST), notVerbatim(FIRST));
  return agent;
}

describe('numbered-copy', () => {
  it('blocks another edit carrying line numbers once one was not found in the unchanged file', () => {
    const check = afterNumberedFailure().check('str_replace_editor', replace(SECOND));
    expect(check).toMatchObject({ verdict: 'block', rule: 'numbered-copy' });
    expect(check.reason).toContain('carries the line numbers of a numbered view ("313 {")');
    expect(check.suggestion).toContain('without the line numbers');
  });

  it('allows an edit without line numbers', () => {
    const agent = afterNumberedFailure();
    expect(
      agent.check('str_replace_editor', replace('case TK_MATCH_DONTCARE:\n      return pattern_type;'))
        .allowed,
    ).toBe(true);
  });

  it('allows the first edit carrying line numbers', () => {
    expect(new Agent().check('str_replace_editor', replace(SECOND)).verdict).toBe('allow');
  });

  it('allows another such edit once the file has changed', () => {
    const agent = afterNumberedFailure();
    agent.call(
      'str_replace_editor',
      {
        command: 'insert',
        path: FILE,
        insert_line: 317,
        new_str: 'pattern_type = consume_type(pattern_type);',
      },
      INSERTED,
    );
    expect(agent.check('str_replace_editor', replace(SECOND)).verdict).toBe('allow');
  });

  it('allows another such edit of a different file', () => {
    const agent = afterNumberedFailure();
    const other = { ...replace(SECOND), path: '/workspace/curl__curl__8.5/lib/transfer.c' };
    expect(agent.check('str_replace_editor', other).verdict).toBe('allow');
  });

  it('can be turned off', () => {
    const agent = new Agent({ policy: { detectors: { numberedCopy: { enabled: false } } } });
    agent.call('str_replace_editor', replace(FIRST), notVerbatim(FIRST));
    expect(agent.check('str_replace_editor', replace(SECOND)).allowed).toBe(true);
  });
});

describe('numberedLine', () => {
  it('finds a line that starts with a line number and a tab or an arrow', () => {
    expect(numberedLine('switch(x)\n   313\t  {')).toBe('   313\t  {');
    expect(numberedLine('    12→const x = 1;')).toBe('    12→const x = 1;');
    expect(numberedLine('return 313;\n  x\t= 1')).toBeUndefined();
  });

  it('never throws and returns one line of the text, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const line = numberedLine(text);
        if (line !== undefined) {
          expect(line.includes('\n')).toBe(false);
          expect(text.includes(line)).toBe(true);
        }
      }),
    );
  });

  it('finds the first line a viewer numbered, as the plain expression does, in any text', () => {
    const plain = (text: string) => {
      const match = /(?:^|\n)[ ]*\d{1,6}(?:\t|→)/.exec(text);
      if (!match) return undefined;
      const start = match.index + (match[0].startsWith('\n') ? 1 : 0);
      const end = text.indexOf('\n', start);
      return text.slice(start, end < 0 ? undefined : end);
    };
    const piece = fc.oneof(
      fc.constantFrom('\n', '\t', '→', ' ', '313', '7', 'const x = 1;'),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        expect(numberedLine(text)).toBe(plain(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('numbered-copy across a restart', () => {
  /** A new guard holding what `agent` saved, as a new process reads it back from a store. */
  function restarted(agent: Agent): Agent {
    const next = new Agent();
    next.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
    return next;
  }

  it('blocks another edit carrying line numbers in a guard restored from a snapshot', () => {
    const check = restarted(afterNumberedFailure()).check('str_replace_editor', replace(SECOND));
    expect(check).toMatchObject({ verdict: 'block', rule: 'numbered-copy' });
    expect(check.reason).toContain('("313 {")');
  });

  it('saves the file by its path’s hash, with nothing of the edit that was not found', () => {
    const saved = JSON.stringify(afterNumberedFailure().loop.sessionSnapshot().detectors['numbered-copy']);
    expect(saved).toMatch(/^\{"version":2,"files":\["[0-9a-f]{16}"\]\}$/);
  });

  it('ignores a hostile or corrupt snapshot, and never throws reading one', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.anything(), fc.record({ version: fc.constant(2), files: fc.anything() })),
        (state) => {
          const agent = new Agent();
          agent.loop.restore({
            ...agent.loop.snapshot(),
            session: { detectors: { 'numbered-copy': state } },
          });
          expect(agent.check('str_replace_editor', replace(SECOND)).verdict).toBe('allow');
        },
      ),
      { numRuns: 200 },
    );
  });
});
