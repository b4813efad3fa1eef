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

  const schema = 'frontend/prisma/schema.prisma';
  const replacing = { old_string: 'Decimal', new_string: 'Decimal @db.Decimal(12, 2)' };
  it.each([
    [
      'run_terminal_cmd',
      'edit_file',
      { target_file: schema, code_edit: '  balance Decimal @db.Decimal(12, 2)' },
    ],
    ['Bash', 'Edit', { file_path: schema, ...replacing }],
    [
      'shell',
      'apply_patch',
      {
        input: `*** Begin Patch\n*** Update File: ${schema}\n@@\n-  balance Decimal\n+  balance Decimal @db.Decimal(12, 2)\n`,
      },
    ],
    ['run_shell_command', 'replace', { file_path: schema, ...replacing }],
  ])(
    'lets a schema push refused for a syntax error in the SQL it generated run again after an edit of the schema (%s)',
    (shell, edit, change) => {
      const agent = new Agent();
      const push = { command: 'cd frontend && npx prisma db push --accept-data-loss' };
      const refused = {
        text: [
          'Prisma schema loaded from prisma/schema.prisma',
          'Datasource "db": PostgreSQL database "shop", schema "public" at "localhost:5432"',
          'Error: ERROR: syntax error at or near ","',
          '   0: sql_schema_connector::apply_migration::migration_step',
          '             at schema-engine/connectors/sql-schema-connector/src/apply_migration.rs:28',
          '   1: schema_core::state::SchemaPush',
          '             at schema-engine/core/src/state.rs:545',
        ].join('\n'),
        isError: true,
      };
      agent.call(shell, push, refused);
      expect(agent.check(shell, push).verdict).toBe('block');
      agent.call(edit, change, 'ok');
      expect(agent.check(shell, push).verdict).toBe('allow');
    },
  );
  it('lets a process check that found nothing run again after a command that may have started the process', () => {
    const agent = new Agent();
    const check = { command: 'pgrep -a example_walk', workdir: '/home/unitree' };
    const none = { text: 'Exit code: 1', isError: true };
    agent.call('shell', check, none);
    agent.call('shell', check, none);
    expect(agent.check('shell', check).verdict).toBe('block');
    agent.call(
      'shell',
      { command: 'sudo ./example_walk', workdir: '/home/unitree/unitree_legged_sdk/build' },
      'UDP Initialized. Port: 8080',
    );
    expect(agent.check('shell', check).verdict).toBe('allow');
  });
});
