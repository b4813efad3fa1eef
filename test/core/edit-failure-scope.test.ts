import { describe, expect, it } from 'vitest';
import { hashString } from '../../src/core/identity/index.js';
import { Agent } from './support.js';

const SETTINGS = '/repo/.claude/settings.json';
const OLD_ALLOW = '"allow": "Bash(npm test)"';

/** Claude Code's `Edit` of one file, replacing `oldString` with `newString`. */
const claudeEdit = (newString: string, oldString = OLD_ALLOW, filePath = SETTINGS) => ({
  file_path: filePath,
  old_string: oldString,
  new_string: newString,
});

const SETTINGS_REJECTED = {
  text: 'Claude Code settings.json validation failed after edit:\n- permissions.allow: Expected array, but received string\n\nFull schema:\n{"permissions":{"allow":{"type":"array"}}}',
  isError: true,
};
const NOT_FOUND = {
  text: `<tool_use_error>String to replace not found in file.\nString: ${OLD_ALLOW}</tool_use_error>`,
  isError: true,
};
const FOUND_TWICE = {
  text: `<tool_use_error>Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${OLD_ALLOW}</tool_use_error>`,
  isError: true,
};
const NO_CHANGE = {
  text: '<tool_use_error>No changes to make: old_string and new_string are exactly the same.</tool_use_error>',
  isError: true,
};

describe('edits refused for what they would write', () => {
  it('allows a corrected replacement after the settings file rejected what the first one would write', () => {
    const agent = new Agent();
    agent.call('Edit', claudeEdit('"allow": "Bash(npm test), Bash(npm run lint)"'), SETTINGS_REJECTED);
    expect(agent.check('Edit', claudeEdit('"allow": ["Bash(npm test)", "Bash(npm run lint)"]')).verdict).toBe(
      'allow',
    );
  });

  it('blocks the very edit the settings file rejected when it is proposed again unchanged', () => {
    const agent = new Agent();
    const edit = claudeEdit('"allow": "Bash(npm test), Bash(npm run lint)"');
    agent.call('Edit', edit, SETTINGS_REJECTED);
    expect(agent.check('Edit', edit)).toMatchObject({ verdict: 'block', rule: 'identical-failure' });
  });

  it('allows another replacement after an edit was refused because its old and new text were the same', () => {
    const agent = new Agent();
    agent.call('Edit', claudeEdit(OLD_ALLOW), NO_CHANGE);
    expect(agent.check('Edit', claudeEdit('"allow": ["Bash(npm test)"]')).verdict).toBe('allow');
  });

  it('lets another replacement through after an edit failed twice with an error nobody recognises, advising to read the file first', () => {
    const agent = new Agent();
    const unknown = { text: 'E_SANDBOX_7: request could not be completed', isError: true };
    agent.call('Edit', claudeEdit('"allow": "Bash(npm *)"'), unknown);
    agent.call('Edit', claudeEdit('"allow": "Bash(npm *)"'), unknown);
    expect(agent.check('Edit', claudeEdit('"allow": ["Bash(npm test)"]'))).toMatchObject({
      verdict: 'warn',
      rule: 'edit-streak',
    });
  });
});

describe('edits refused because their search text could not be applied', () => {
  it('blocks another replacement of a text Claude Code did not find in the file', () => {
    const agent = new Agent();
    agent.call('Edit', claudeEdit('"allow": ["Bash(npm test)"]'), NOT_FOUND);
    expect(agent.check('Edit', claudeEdit('"allow": ["Bash(npm *)"]'))).toMatchObject({
      verdict: 'block',
      rule: 'identical-failure',
    });
  });

  it('blocks another replacement of a text Claude Code found twice in the file', () => {
    const agent = new Agent();
    agent.call('Edit', claudeEdit('"allow": ["Bash(npm test)"]'), FOUND_TWICE);
    expect(agent.check('Edit', claudeEdit('"allow": ["Bash(npm *)"]')).verdict).toBe('block');
  });

  it('allows the same replacement told to replace every match after Claude Code found the text twice', () => {
    const agent = new Agent();
    const edit = claudeEdit('"allow": ["Bash(npm *)"]');
    agent.call('Edit', { ...edit, replace_all: false }, FOUND_TWICE);
    expect(agent.check('Edit', { ...edit, replace_all: true }).verdict).toBe('allow');
  });

  it('still blocks the replacement of every match once that failed too', () => {
    const agent = new Agent();
    const edit = { ...claudeEdit('"allow": ["Bash(npm *)"]'), replace_all: true };
    agent.call('Edit', edit, NOT_FOUND);
    expect(agent.check('Edit', { ...edit, new_string: '"allow": []' }).verdict).toBe('block');
  });

  it('blocks another replacement of a text the OpenHands editor says did not appear verbatim', () => {
    const agent = new Agent();
    const edit = (newStr: string) => ({
      command: 'str_replace',
      path: '/workspace/django/db/models/query.py',
      old_str: '        if self.query.is_sliced:\n            raise TypeError',
      new_str: newStr,
    });
    agent.call('str_replace_editor', edit('        if self.query.is_sliced:\n            raise ValueError'), {
      text: 'ERROR:\nNo replacement was performed, old_str `        if self.query.is_sliced:\n            raise TypeError` did not appear verbatim in /workspace/django/db/models/query.py.',
      isError: true,
    });
    expect(
      agent.check('str_replace_editor', edit('        if self.query.is_sliced:\n            return self'))
        .verdict,
    ).toBe('block');
  });

  it("blocks another replacement of a text Gemini CLI's replace could not find", () => {
    const agent = new Agent();
    const edit = (newString: string) => ({
      file_path: '/home/dev/app/src/server.ts',
      old_string: 'app.listen(3000);',
      new_string: newString,
    });
    agent.call('replace', edit('app.listen(PORT);'), {
      text: 'Failed to edit, could not find the string to replace.',
      isError: true,
    });
    expect(agent.check('replace', edit('app.listen(Number(process.env.PORT));')).verdict).toBe('block');
  });

  it('files a ban on a text not found under the key earlier versions saved it under', () => {
    const agent = new Agent();
    agent.call('Edit', claudeEdit('"allow": ["Bash(npm test)"]'), NOT_FOUND);
    const [ban] = agent.loop.getActiveConstraints();
    expect(ban?.callKey).toBe(`Edit\u0000edit\u0000${ban?.target}\u0000#${hashString(OLD_ALLOW)}`);
  });

  it('files a ban on an edit whose replace_all is left false under the key earlier versions saved it under', () => {
    const agent = new Agent();
    agent.call('Edit', { ...claudeEdit('"allow": ["Bash(npm test)"]'), replace_all: false }, NOT_FOUND);
    const [ban] = agent.loop.getActiveConstraints();
    expect(ban?.callKey).toBe(`Edit\u0000edit\u0000${ban?.target}\u0000#${hashString(OLD_ALLOW)}`);
  });

  it('files a ban on what an edit would write under the whole call, not under its search text', () => {
    const agent = new Agent();
    agent.call('Edit', claudeEdit('"allow": "Bash(npm *)"'), SETTINGS_REJECTED);
    const [ban] = agent.loop.getActiveConstraints();
    expect(ban?.callKey).not.toMatch(/^Edit\u0000edit\u0000/);
  });
});

describe('patches given to a shell through a heredoc', () => {
  const patch = (indent: string) =>
    [
      "apply_patch << 'PATCH'",
      '*** Begin Patch',
      '*** Update File: schemas/pdl.schema.json',
      '@@',
      `-${indent}"pin":{"type":"integer","minimum":0},`,
      `+${indent}"pin":{"oneOf":[{"type":"integer","minimum":0},{"type":"string"}]},`,
      '*** End Patch',
      'PATCH',
    ].join('\n');
  const NOT_FOUND_LINES = {
    text: `failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 1, stdout: , stderr: Failed to find expected lines in schemas/pdl.schema.json:\n            "pin":{"type":"integer","minimum":0},`,
    isError: true,
  };

  it('allows the patch again with the indentation the file has, after the patch with other indentation failed', () => {
    const agent = new Agent();
    agent.call('shell', { command: patch('            ') }, NOT_FOUND_LINES);
    expect(agent.check('shell', { command: patch('          ') }).verdict).toBe('allow');
  });

  it('blocks the very patch that failed when it is given again unchanged', () => {
    const agent = new Agent();
    agent.call('shell', { command: patch('            ') }, NOT_FOUND_LINES);
    expect(agent.check('shell', { command: patch('            ') })).toMatchObject({
      verdict: 'block',
      rule: 'identical-failure',
    });
  });
});
