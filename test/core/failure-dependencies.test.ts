import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

describe('what a failure depends on', () => {
  it('lets a lint read that names no file it follows run again after an edit', () => {
    for (const edit of ['search_replace', 'Edit', 'replace', 'edit_file']) {
      const agent = new Agent();
      const lints = { description: '• Read lints for 1 file', for: 'shop/web/app/orders/[id]/page.tsx' };
      agent.call('read_lints', lints, '');
      agent.call('read_lints', lints, '');
      expect(agent.check('read_lints', lints).verdict).toBe('block');
      agent.call(
        edit,
        { file_path: 'd:\\shop\\web\\app\\orders\\[id]\\page.tsx', old_string: 'a', new_string: 'b' },
        'ok',
      );
      expect(agent.check('read_lints', lints).verdict).toBe('allow');
    }
  });

  it('lets a seed script run again after an edit of the file its syntax error names, in a folder whose name holds a space', () => {
    for (const shell of ['run_terminal_command_v2', 'run_shell_command', 'Bash']) {
      const agent = new Agent();
      const seed = { command: 'pnpm db:seed' };
      const failed = {
        text: [
          '> forwarder@0.1.0 db:seed E:\\work\\Forwarder System',
          '> tsx prisma/seed.ts',
          'Error: Transform failed with 1 error:',
          'E:\\work\\Forwarder System\\prisma\\seed.ts:30:81: ERROR: Expected "}" but found "描述"',
          '    at failureErrorWithLog (E:\\work\\Forwarder System\\node_modules\\esbuild\\lib\\main.js:1748:15)',
        ].join('\n'),
        isError: true,
      };
      agent.call(shell, seed, failed);
      expect(agent.check(shell, seed).verdict).toBe('block');
      agent.call(
        'edit_file_v2',
        { file_path: 'e:\\work\\Forwarder System\\prisma\\seed.ts', old_string: 'a', new_string: 'b' },
        'ok',
      );
      expect(agent.check(shell, seed).verdict).toBe('allow');
    }
  });
});
