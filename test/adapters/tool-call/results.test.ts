import { describe, expect, it } from 'vitest';
import { toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import { isEmptyAnswer } from '../../../src/adapters/tool-call/empty-result.js';
import { adapter, successOf } from './helpers.js';

/** The answer `text` of `tool` read as one that found nothing. */
function expectEmpty(tool: string, args: Record<string, unknown>, text: string): void {
  expect({ text, signature: successOf(tool, args, text)?.signature }).toEqual({
    text,
    signature: 'empty_result',
  });
}

describe('empty results', () => {
  it('flags an empty read as empty_result, an agent failure that is not deterministic', () => {
    expect(successOf('read_file', { path: 'data.json' }, '')).toEqual({
      signature: 'empty_result',
      blame: 'agent_failure',
      deterministic: false,
      meaning: 'call',
    });
  });

  it('flags the "nothing found" answers of real search tools', () => {
    for (const text of [
      'No matches found',
      'No files found',
      '0 results',
      'No matches found for pattern "TODO" in path ".".',
      'No files found matching pattern "*.rs" within /w',
      'Directory /w/empty is empty.',
    ]) {
      expectEmpty('search_files', { path: '/w', pattern: 'x' }, text);
    }
  });

  it('flags a "nothing found" answer beside lines that carry only an id, a time or a temporary path', () => {
    for (const [tool, args, text] of [
      [
        'search_file',
        { search_term: 'def from_db_value' },
        'No matches found for "def from_db_value" in /repo/django/db/models/fields/__init__.py\n\nrequest id: 3fa2b9c01d7e\nlog: /tmp/tmpqyhchoyb/run.log\ntook 412 ms',
      ],
      [
        'grep_search',
        { pattern: 'handleAddBookmark' },
        'No matches found for pattern "handleAddBookmark" in the workspace directory.\n(node:48213)\n[07:42:31] done',
      ],
      [
        'Grep',
        { pattern: 'TODO', path: 'src' },
        'x-request-id: req_7Hq2LmZ9xK4pTs\nNo files found\nDone in 3.41s.',
      ],
      [
        'search_issues',
        { query: 'flaky login' },
        '{"total_count":0,"items":[]}\ntrace 3FA2B9C0-1D7E-4ABC-A123-3FA2B9C01D7E',
      ],
    ] as const) {
      expectEmpty(tool, args, text);
    }
  });

  it('does not flag a "nothing found" line beside a line that says more than an id or a time', () => {
    for (const text of [
      'No matches found in src/\nsrc/orders/parse.ts:12: const total = 3',
      'No results found\nSee https://docs.example.dev/search for search tips',
      'No matches found\nSearched 1204 files in 412 ms',
    ]) {
      expect(successOf('search_files', { path: '/w', pattern: 'x' }, text)).toBeUndefined();
    }
  });

  it('does not read a file holding only a time as empty', () => {
    expect(successOf('read_file', { path: 'last-run.txt' }, '2026-11-30T03:24:55Z\n')).toBeUndefined();
  });

  it('flags empty JSON from a remote read', () => {
    for (const text of ['null', '[]', '{}', '{"total_count":0,"incomplete_results":false,"items":[]}']) {
      expect(successOf('search_issues', { query: 'x' }, text)?.signature).toBe('empty_result');
      expect(successOf('web_fetch', { url: 'https://x.dev' }, text)?.signature).toBe('empty_result');
    }
  });

  it('does not flag a JSON answer that says no', () => {
    expect(successOf('get_file_info', { path: 'a' }, '{"exists": false}')).toBeUndefined();
  });

  it('does not flag a long file that merely mentions no results', () => {
    const file = `# Report\n\n${'Line of text.\n'.repeat(40)}No results were found for Q3.\n`;
    expect(successOf('read_file', { path: 'report.md' }, file)).toBeUndefined();
  });

  it('does not flag silent commands, edits or creations', () => {
    expect(successOf('Bash', { command: 'mkdir -p build' }, '')).toBeUndefined();
    expect(successOf('Edit', { file_path: 'a', old_string: 'x', new_string: 'y' }, '')).toBeUndefined();
    expect(successOf('create_directory', { path: 'a' }, '')).toBeUndefined();
  });

  it('does not flag an empty reply to a remote write', () => {
    expect(successOf('post_message', { channel: 'c', text: 'hi' }, '')).toBeUndefined();
  });

  it('does not flag a result with content', () => {
    expect(successOf('read_file', { path: 'a' }, 'hello')).toBeUndefined();
  });

  it('treats undefined content as empty', () => {
    expect(isEmptyAnswer(undefined)).toBe(true);
  });
});

describe('non-advancing results', () => {
  function outcomeWithMeta(meta: Record<string, unknown>) {
    return toolCallToOutcome('list_jobs', {}, { content: [{ type: 'text', text: 'same' }], _meta: meta });
  }

  it('honours the narrowing flag in _meta', () => {
    expect(adapter.isNonAdvancing(outcomeWithMeta({ 'dev.narrowing/non-advancing': true }))).toBe(true);
  });

  it('honours the NimbleBrain flag in _meta', () => {
    expect(adapter.isNonAdvancing(outcomeWithMeta({ 'ai.nimblebrain/non-advancing': true }))).toBe(true);
  });

  it('ignores a flag that is not exactly true', () => {
    expect(adapter.isNonAdvancing(outcomeWithMeta({ 'dev.narrowing/non-advancing': 'yes' }))).toBe(false);
  });

  it('does not guess from an empty result', () => {
    const outcome = toolCallToOutcome('search_files', { pattern: 'x' }, 'No matches found');
    expect(adapter.isNonAdvancing(outcome)).toBe(false);
  });
});

describe('toolCallToOutcome', () => {
  it('joins the text items of an MCP result and keeps _meta', () => {
    const outcome = toolCallToOutcome(
      'read_file',
      { path: 'a' },
      {
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
        _meta: { 'dev.example/x': 1 },
      },
    );
    expect(outcome).toMatchObject({ success: true, content: 'one\ntwo', meta: { 'dev.example/x': 1 } });
  });

  it('reads isError as a failure', () => {
    const outcome = toolCallToOutcome('nope', {}, { content: [{ type: 'text', text: 'x' }], isError: true });
    expect(outcome.success).toBe(false);
  });

  it('summarises non-text items by type and size', () => {
    const outcome = toolCallToOutcome(
      'screenshot',
      {},
      { content: [{ type: 'image', mimeType: 'image/png', data: 'AAAA' }] },
    );
    expect(outcome.content).toBe('[image image/png, 3 bytes]');
  });

  it('keeps the text of embedded resources', () => {
    const item = { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hi' } };
    expect(toolCallToOutcome('get_resource', {}, { content: [item] }).content).toBe(
      '[resource file:///a.txt]\nhi',
    );
  });

  it('folds structured content in when there is no text', () => {
    const outcome = toolCallToOutcome('get_sum', {}, { content: [], structuredContent: { sum: 3 } });
    expect(outcome.content).toBe('{"sum":3}');
  });

  it('reads a string as a successful result', () => {
    expect(toolCallToOutcome('Read', {}, 'file text')).toMatchObject({ success: true, content: 'file text' });
  });

  it('reads an Error as a failure with its name and code', () => {
    const error = Object.assign(new Error("ENOENT: no such file or directory, open 'a'"), { code: 'ENOENT' });
    expect(toolCallToOutcome('read_file', { path: 'a' }, error)).toMatchObject({
      success: false,
      error: "ENOENT: no such file or directory, open 'a'",
      errorCode: 'ENOENT',
    });
    expect(toolCallToOutcome('x', {}, new SyntaxError('Unexpected token')).exceptionName).toBe('SyntaxError');
  });

  it('reads the status and Retry-After of an SDK error', () => {
    const error = Object.assign(new Error('Rate limited'), { status: 429, headers: { 'retry-after': '4' } });
    expect(toolCallToOutcome('api', {}, error)).toMatchObject({ status: 429, retryAfterSeconds: 4 });
  });

  it('reads { error } as a failure', () => {
    expect(toolCallToOutcome('x', {}, { error: 'boom' })).toMatchObject({ success: false, error: 'boom' });
  });

  it('keeps any other value as JSON', () => {
    expect(toolCallToOutcome('x', {}, { rows: [1, 2] })).toMatchObject({
      success: true,
      content: '{"rows":[1,2]}',
    });
  });

  it('survives values JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toolCallToOutcome('x', {}, cyclic).success).toBe(true);
    expect(toolCallToOutcome('x', {}, { big: 10n }).content).toBe('{"big":"10"}');
  });

  it('carries the proposal extras and the measured costs', () => {
    const outcome = toolCallToOutcome('x', {}, 'ok', { callId: 'c1', step: 3, durationMs: 12, tokens: 40 });
    expect(outcome).toMatchObject({ proposal: { callId: 'c1', step: 3 }, durationMs: 12, tokens: 40 });
  });

  it('keeps a free-form argument under input', () => {
    expect(toolCallToOutcome('apply_patch', '*** Begin Patch', 'ok').proposal.args).toEqual({
      input: '*** Begin Patch',
    });
  });
});
