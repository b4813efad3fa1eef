import { describe, expect, it } from 'vitest';
import { asksPersonByName } from '../../../src/adapters/tool-call/person-questions.js';

describe('tools that ask the person at the keyboard', () => {
  it('reads the question tools of the coding agents and tool servers as asking a person', () => {
    for (const tool of [
      'AskUserQuestion',
      'ask_user',
      'ask_followup_question',
      'request_user_input',
      'mcp__human-in-the-loop__ask_human',
    ]) {
      expect(asksPersonByName(tool), tool).toBe(true);
    }
  });

  it('never reads a lookup of user records or a question to another program as asking a person', () => {
    for (const tool of [
      'get_user',
      'list_users',
      'request_review',
      'ask_database',
      'query_user',
      'AskAgent',
    ]) {
      expect(asksPersonByName(tool), tool).toBe(false);
    }
  });
});
