import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blameByWords } from '../../../src/adapters/tool-call/evidence-words.js';
import { failureOf } from './helpers.js';

describe('blame read from the kinds of a failure’s words', () => {
  it('blames the call when the words say what it gave is wrong', () => {
    expect(blameByWords('Update refused: estimate 40 exceeds the maximum of 13 points', false)).toBe(
      'agent_failure',
    );
    expect(blameByWords('label "frontend-v2" does not match any label of this board', false)).toBe(
      'agent_failure',
    );
  });

  it('blames the environment when the words say the service or the host failed', () => {
    expect(blameByWords('Search worker pool is at capacity; the request was dropped', false)).toBe(
      'harness_fault',
    );
    expect(blameByWords('index node wedged, request not served', false)).toBe('harness_fault');
  });

  it('takes no word of a path or a file name as evidence', () => {
    expect(blameByWords('build of src/net/connection.rs stopped: see the log above', false)).toBeUndefined();
    expect(blameByWords('handler crashed in lib/auth/session_store.ex', false)).toBe('harness_fault');
    expect(blameByWords('GET https://api.example.test/v2/timeout returned nothing', false)).toBeUndefined();
    expect(blameByWords('timeout.py: cannot parse line 12', false)).toBe('agent_failure');
  });

  it('still reads the words of a sentence that ends in a full stop', () => {
    expect(blameByWords('The connection was reset.', false)).toBe('harness_fault');
  });

  it('blames nobody when the words are of both kinds, or of neither', () => {
    expect(blameByWords('invalid session token: sign in again', false)).toBeUndefined();
    expect(blameByWords('Something went wrong', false)).toBeUndefined();
  });

  it('does not blame the environment for the words of a command’s log of several lines', () => {
    const log = [
      '[x] Opening connection to 10.0.4.7 on port 9001',
      '[+] Opening connection to 10.0.4.7 on port 9001: Done',
      '[*] Switching to interactive mode',
      'menu> ',
      '[*] Got EOF while reading in interactive',
    ].join('\n');
    expect(blameByWords(log, true)).toBeUndefined();
  });

  it('blames the environment for the words of a command’s message of a few lines', () => {
    expect(blameByWords('worker pool at capacity', true)).toBe('harness_fault');
  });

  it('blames the call for its words in a command’s log', () => {
    const build = [
      'Compiling app v0.3.1',
      'Compiling cli v0.3.1',
      'warning: unused import',
      'error: option --port is not valid here',
    ];
    expect(blameByWords(build.join('\n'), true)).toBe('agent_failure');
  });

  it('passes over words that name a field rather than say what happened', () => {
    const headers = 'HTTP 400, headers: {Server=edge/1.13, Connection=close, Cache-Control=no-cache}';
    expect(blameByWords(headers, false)).toBeUndefined();
    expect(blameByWords('{"timeout": 30, "lock": false, "status": "rejected"}', false)).toBeUndefined();
    expect(blameByWords('the connection to the index was reset', false)).toBe('harness_fault');
  });

  it('reads only the ends of a long failure, where its error is', () => {
    const middle = `${'built module\n'.repeat(80)}warning: invalid escape in comment\n${'built module\n'.repeat(80)}`;
    expect(blameByWords(middle, false)).toBeUndefined();
    expect(blameByWords(`${middle}Error: the value for "region" is not valid`, false)).toBe('agent_failure');
  });

  it('answers for any text, whatever its words', () => {
    const word = fc.constantFrom(
      'invalid',
      'expected',
      'got',
      'timeout',
      'lock',
      'not found',
      'must be',
      ' ',
      '\n',
      'x'.repeat(50),
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(word, fc.string()), { maxLength: 400 }),
        fc.boolean(),
        (parts, command) => {
          const blame = blameByWords(parts.join(''), command);
          expect([undefined, 'agent_failure', 'harness_fault']).toContain(blame);
        },
      ),
    );
  });
});

describe('a failure the catalogue does not recognise, read by its words', () => {
  it('is blamed on the call, and says its blame was read from its words', () => {
    const failure = failureOf(
      'tracker_update',
      { id: 'T-12' },
      'Update refused: estimate 40 exceeds the maximum of 13 points',
    );
    expect(failure).toMatchObject({ blame: 'agent_failure', blameFromWords: true });
  });

  it('is the environment’s when its words say the service failed', () => {
    const failure = failureOf('catalog_search', { query: 'lamps' }, 'index node wedged, request not served');
    expect(failure?.blame).toBe('harness_fault');
  });

  it('leaves a failure the catalogue recognises as the catalogue reads it', () => {
    const failure = failureOf(
      'read_file',
      { path: 'notes.md' },
      "ENOENT: no such file or directory, open 'notes.md'",
    );
    expect(failure?.blame).toBe('agent_failure');
    expect(failure?.blameFromWords).toBeUndefined();
  });
});
