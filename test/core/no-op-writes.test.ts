import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const REPLACEMENT = [
  "            pony_model.options['indexes'] = [create_index_operation.index]",
  "            project_state.reload_model(app_label, 'Pony', delay=True)",
].join('\n');
/** An editor that answers with the file as the edit left it, numbered. */
const FILE_AFTER = [
  '[File: /django__django/reproduce.py (86 lines total)]',
  '72:            create_table_operation.database_forwards(app_label, editor, project_state, project_state.clone())',
  "73:            pony_model.options['indexes'] = [create_index_operation.index]",
  "74:            project_state.reload_model(app_label, 'Pony', delay=True)",
  '75:            create_index_operation.database_forwards(app_label, editor, project_state, project_state.clone())',
  'File updated. Please review the changes and make sure they are correct.',
].join('\n');
const LINE_EDIT = { lines: '73:74', replacement: REPLACEMENT };

const CONTENT = 'export const PORT = Number(process.env.PORT ?? 3000);\nexport const HOST = "0.0.0.0";\n';
const SNIPPET = [
  "The file /home/dev/shop/src/config.ts has been updated. Here's the result of running `cat -n` on a snippet of the edited file:",
  '     1\texport const PORT = Number(process.env.PORT ?? 3000);',
  '     2\texport const HOST = "0.0.0.0";',
].join('\n');

describe('a write repeated back to back that answers as it did', () => {
  it('blocks the third identical line edit once two answered with the same file', () => {
    const agent = new Agent();
    expect(agent.repeat(3, 'edit', LINE_EDIT, FILE_AFTER)).toEqual(['allow', 'allow', 'block']);
  });

  it('tells the agent the edit writes what the file already holds', () => {
    const agent = new Agent();
    agent.repeat(2, 'edit', LINE_EDIT, FILE_AFTER);
    expect(agent.check('edit', LINE_EDIT).reason).toMatch(/writes what the file already holds/);
  });

  it('blocks the third identical whole-file write of a host whose answer shows what it wrote', () => {
    for (const [tool, args] of [
      ['Write', { file_path: '/home/dev/shop/src/config.ts', content: CONTENT }],
      ['write_file', { absolute_path: '/home/dev/shop/src/config.ts', content: CONTENT }],
    ] as const) {
      const agent = new Agent();
      expect(agent.repeat(3, tool, args, SNIPPET)).toEqual(['allow', 'allow', 'block']);
    }
  });

  it('leaves a repeated write alone when its answer shows nothing of what it wrote', () => {
    const agent = new Agent();
    const done = 'Success. Updated the following files:\nM src/config.ts';
    expect(agent.repeat(3, 'edit', LINE_EDIT, done)).toEqual(['allow', 'allow', 'warn']);
  });

  it('leaves a repeated edit alone when the file it shows changed from one answer to the next', () => {
    const agent = new Agent();
    const verdicts = [86, 88, 90].map(
      (total) =>
        agent.call('edit', LINE_EDIT, FILE_AFTER.replace('86 lines', `${total} lines`)).check.verdict,
    );
    expect(verdicts).toEqual(['allow', 'allow', 'allow']);
  });

  it('counts again from the first write after a script of unknown effects runs between', () => {
    const agent = new Agent();
    agent.repeat(2, 'edit', LINE_EDIT, FILE_AFTER);
    const traceback = [
      'Traceback (most recent call last):',
      '  File "/django__django/reproduce.py", line 80, in <module>',
      "AttributeError: 'ModelState' object has no attribute 'render_index'",
    ].join('\n');
    agent.call('bash', { command: 'python reproduce.py' }, { text: traceback, isError: true });
    expect(agent.repeat(3, 'edit', LINE_EDIT, FILE_AFTER)).toEqual(['allow', 'allow', 'block']);
  });
});

describe('a line edit made again that answers with another file', () => {
  it('gives a failing script that reads the file its retry, as a first edit does', () => {
    const agent = new Agent();
    const traceback = {
      text: [
        '[+] Opening connection to pwn.example.io on port 1436: Done',
        'Traceback (most recent call last):',
        '  File "/home/dev/ctf/exploit.py", line 5, in <module>',
        'EOFError',
      ].join('\n'),
      isError: true,
    };
    const edit = { lines: '4:5', replacement: "p.sendline(payload + b' && cat flag.txt')" };
    const shown = (total: number) =>
      `[File: /home/dev/ctf/exploit.py (${total} lines total)]\n1:from pwn import *`;
    agent.call('open', { path: 'exploit.py' }, shown(8));
    agent.call('bash', { command: 'python exploit.py' }, traceback);
    agent.call('edit', edit, shown(7));
    agent.call('bash', { command: 'python exploit.py' }, traceback);
    agent.call('edit', edit, shown(6));
    expect(agent.call('bash', { command: 'python exploit.py' }, traceback).check.verdict).not.toBe('block');
  });

  it('takes a file written again after a command moved it away for a change', () => {
    const agent = new Agent();
    const data = {
      path: '~/ctf/encrypted.txt',
      contents: '3ffffffffffffffffd85cfd68c87ef436ea3b1927ddf8fd8d3f4',
    };
    const written = '{"success": true, "path": "/home/dev/ctf/encrypted.txt"}';
    const missing = {
      text: [
        'Traceback (most recent call last):',
        '  File "/home/dev/ctf/solve.py", line 33, in <module>',
        "    with open('/home/dev/ctf/encrypted.txt', 'r') as f:",
        "FileNotFoundError: [Errno 2] No such file or directory: '/home/dev/ctf/encrypted.txt'",
      ].join('\n'),
      isError: true,
    };
    agent.call('createfile', data, written);
    agent.call('run_command', { command: 'mv ~/ctf/encrypted.txt ~/ctf/notes.txt' }, '');
    agent.call('run_command', { command: 'python3 ~/ctf/solve.py' }, missing);
    agent.call('createfile', data, written);
    expect(agent.call('run_command', { command: 'python3 ~/ctf/solve.py' }, missing).check.verdict).not.toBe(
      'block',
    );
  });
});
