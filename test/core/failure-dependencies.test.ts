import { describe, expect, it } from 'vitest';
import { type HostAgent, hostToolAnnotations } from '../../src/adapters/tool-call/host-tools.js';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { Agent } from './support.js';

/** An agent whose calls carry what its host says of its tools (a whole-file write creates a file). */
class HostedAgent extends Agent {
  constructor(private readonly host: HostAgent) {
    super();
  }

  verdict(tool: string, args: Record<string, unknown>): string {
    return this.loop.checkProposal(this.proposal(tool, args)).verdict;
  }

  run(tool: string, args: Record<string, unknown>, text: string, isError = false): void {
    const proposal = this.proposal(tool, args);
    this.loop.checkProposal(proposal);
    const annotations = hostToolAnnotations(this.host, tool);
    const outcome = toolCallToOutcome(
      tool,
      args,
      { content: [{ type: 'text', text }], isError },
      annotations ? { annotations } : {},
    );
    this.loop.recordOutcome({ ...outcome, proposal });
  }

  private proposal(tool: string, args: Record<string, unknown>) {
    const annotations = hostToolAnnotations(this.host, tool);
    return toolCallToProposal(tool, args, annotations ? { annotations } : {});
  }
}

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

  it.each([
    {
      what: 'a PowerShell script that could not be parsed, named after `At` in a folder whose name holds a space',
      shell: 'run_terminal_command_v2',
      command: 'pnpm run deploy',
      output: [
        '> shop@0.1.0 deploy E:\\work\\Shop Site',
        '> powershell -ExecutionPolicy Bypass -File scripts/push-deploy.ps1',
        '',
        'At E:\\work\\Shop Site\\scripts\\push-deploy.ps1:33 char:16',
        '+     Write-Host "  HTTP $($r.StatusCode) -ForegroundColor Red',
        '+                ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
        'The string is missing the terminator: ".',
        '    + CategoryInfo          : ParserError: (:) [], ParseException',
        '    + FullyQualifiedErrorId : TerminatorExpectedAtEndOfString',
      ],
      edit: 'edit_file_v2',
      file: 'e:\\work\\Shop Site\\scripts\\push-deploy.ps1',
    },
    {
      what: 'an ES module Node could not compile, named as a file URL',
      shell: 'Bash',
      command: 'cd backend && node server.js',
      output: [
        'file:///C:/Users/dev/dating-platform/backend/routes/webhooks.js:77',
        "   missing.map((s) => '   ' + s + '=<secret>').join('",
        '                                                  ^',
        '',
        'SyntaxError: Invalid or unexpected token',
        '    at compileSourceTextModule (node:internal/modules/esm/utils:340:16)',
      ],
      edit: 'Edit',
      file: 'C:/Users/dev/dating-platform/backend/routes/webhooks.js',
    },
  ])(
    'lets a command run again after an edit of the file its error names: $what',
    ({ shell, command, output, edit, file }) => {
      const agent = new Agent();
      const run = { command };
      agent.call(shell, run, { text: output.join('\r\n'), isError: true });
      expect(agent.check(shell, run).verdict).toBe('block');
      agent.call(edit, { file_path: file, old_string: "join('", new_string: "join('\\n')" }, 'ok');
      expect(agent.check(shell, run).verdict).toBe('allow');
    },
  );

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
  it('lets a build run again after a whole-file write rewrites a source file an edit changed earlier', () => {
    for (const [host, shell, edit, write] of [
      ['claude-code', 'Bash', 'Edit', 'Write'],
      ['gemini-cli', 'run_shell_command', 'replace', 'write_file'],
    ] as const) {
      const agent = new HostedAgent(host);
      const store = '/home/dev/shop/web/src/lib/cart-store.ts';
      const build = { command: 'pnpm run build 2>&1' };
      const failed = [
        'Exit code 1',
        '> shop-web@0.3.0 build /home/dev/shop/web',
        '> next build',
        '  Generating static pages using 1 worker (2/8)',
        'Error occurred prerendering page "/checkout". Read more: https://nextjs.org/docs/messages/prerender-error',
        'ReferenceError: window is not defined',
        '    at module evaluation (.next/server/chunks/ssr/[root-of-the-server]__1b2208ad._.js:37:47609)',
      ].join('\n');
      agent.run(edit, { file_path: store, old_string: 'persist(', new_string: 'createJSONStorage(' }, 'ok');
      agent.run(shell, build, failed, true);
      agent.run(shell, build, failed, true);
      expect(agent.verdict(shell, build)).toBe('block');
      agent.run(
        write,
        {
          file_path: store,
          content:
            "import { create } from 'zustand';\n\nexport const useCart = create(() => ({ items: [] }));\n",
        },
        'ok',
      );
      expect(agent.verdict(shell, build)).toBe('allow');
    }
  });

  it('keeps a failing build blocked after a whole-file write of a new file its error does not name', () => {
    const agent = new HostedAgent('claude-code');
    const build = { command: 'pnpm run build 2>&1' };
    const failed = [
      'Exit code 1',
      '> next build',
      'Error occurred prerendering page "/checkout". Read more: https://nextjs.org/docs/messages/prerender-error',
      'ReferenceError: window is not defined',
      '    at module evaluation (.next/server/chunks/ssr/[root-of-the-server]__1b2208ad._.js:37:47609)',
    ].join('\n');
    agent.run('Bash', build, failed, true);
    agent.run('Bash', build, failed, true);
    agent.run(
      'Write',
      { file_path: '/home/dev/shop/web/docs/checkout-notes.md', content: '# Checkout\n' },
      'ok',
    );
    expect(agent.verdict('Bash', build)).toBe('block');
  });
  it('lets a type check run again after the editor says another writer changed the file its error names', () => {
    const agent = new Agent();
    const spec = '/home/dev/api/src/routes/jobs/__tests__/jobs-api.test.ts';
    const typecheck = { command: 'cd /home/dev/api && pnpm run typecheck 2>&1' };
    const failed = {
      text: [
        'Exit code 2',
        '> api@1.0.0 typecheck /home/dev/api',
        '> tsc --noEmit',
        'src/routes/jobs/__tests__/jobs-api.test.ts(24,1): error TS6192: All imports in import declaration are unused.',
      ].join('\n'),
      isError: true,
    };
    agent.call('Bash', typecheck, failed);
    agent.call('Bash', typecheck, failed);
    expect(agent.check('Bash', typecheck).verdict).toBe('block');
    agent.call(
      'Edit',
      { file_path: spec, old_string: "import { getJob } from '@acme/db';\n", new_string: '' },
      {
        text: '<tool_use_error>File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.</tool_use_error>',
        isError: true,
      },
    );
    expect(agent.check('Bash', typecheck).verdict).toBe('allow');
  });
});
