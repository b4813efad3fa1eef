import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { activePaths, type ConversationEntry, fitContext } from '../../src/agent/index.js';

function user(text: string): ConversationEntry {
  return { message: { role: 'user', content: [{ type: 'text', text }] } };
}
function assistant(text: string): ConversationEntry {
  return { message: { role: 'assistant', content: [{ type: 'text', text }] } };
}
function toolStep(id: string, path: string, result: string): ConversationEntry[] {
  const call: LanguageModelV3Message = {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path } }],
  };
  const answer: LanguageModelV3Message = {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'text', value: result } },
    ],
  };
  return [{ message: call }, { message: answer }];
}
const filler = 'x'.repeat(400);

describe('context management', () => {
  it('leaves a conversation that fits as it is', () => {
    const entries = [user('task'), assistant('ok')];
    expect(fitContext(entries, { strategy: 'compact', maxTokens: 1000 })).toEqual({ entries, removed: 0 });
  });

  it('keeps the newest messages in a sliding window, never a tool result without its call', () => {
    const entries = [
      user('task'),
      assistant(filler),
      ...toolStep('a', 'src/a.ts', filler),
      assistant('last'),
    ];
    const fitted = fitContext(entries, { strategy: 'sliding', maxTokens: 150 });
    expect(fitted.entries[0]?.message.role).toBe('assistant');
    expect(fitted.entries.map((entry) => entry.message.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(fitted.removed).toBe(2);
  });

  it('compacts to the task, a marker and the newest messages', () => {
    const entries = [
      user('the task'),
      assistant(filler),
      assistant(filler),
      assistant(filler),
      assistant('newest'),
    ];
    const fitted = fitContext(entries, { strategy: 'compact', maxTokens: 200, keepLast: 1 });
    expect(fitted.entries.map((entry) => entry.internal ?? entry.message.role)).toEqual([
      'user',
      'compaction',
      'assistant',
    ]);
    expect(JSON.stringify(fitted.entries[1]?.message)).toContain('3 earlier messages were removed');
    expect(fitted.removed).toBe(3);
  });

  it('keeps older messages that mention the files being worked on, in their order', () => {
    const entries = [
      user('fix the build'),
      ...toolStep('a', 'src/parser.ts', 'SyntaxError at line 3'),
      assistant(filler),
      assistant(filler),
      ...toolStep('b', 'src/parser.ts', 'fixed'),
    ];
    const fitted = fitContext(entries, {
      strategy: 'compact',
      maxTokens: 200,
      keepLast: 2,
      activeFileShare: 0.3,
    });
    const text = JSON.stringify(fitted.entries.map((entry) => entry.message));
    expect(text).toContain('SyntaxError at line 3');
    expect(text).not.toContain(filler);
  });

  it('finds relative paths and file names in what was said', () => {
    expect([...activePaths([user('edit ./src/a.ts and README.md, not 3.5')])]).toEqual([
      'src/a.ts',
      'README.md',
    ]);
  });
});
