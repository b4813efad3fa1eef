import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const CHECK = {
  command: 'node -c routes/webhooks.js 2>&1',
  description: 'Syntax check webhooks.js',
};
const SYNTAX_ERROR = {
  text: [
    'Exit code 1',
    '/srv/app/backend/routes/webhooks.js:63',
    "    const secretsList = missingSecrets.map(s => `  - ${s}`).join('",
    '                                                              ^',
    '',
    'SyntaxError: Invalid or unexpected token',
  ].join('\n'),
  isError: true,
};
const FIX_SCRIPT = [
  "const fs = require('fs');",
  "const content = fs.readFileSync('routes/webhooks.js', 'utf8');",
  'const fixed = content.replace(/join\\(\'\\n/g, "join(\'\\\\n");',
  "fs.writeFileSync('routes/webhooks.js', fixed);",
  "console.log('Fixed validateWebhookSecrets function');",
].join('\n');
const REPORT_SCRIPT = [
  "const { execSync } = require('child_process');",
  "console.log(execSync('git status --short').toString());",
].join('\n');

/** The agent's failed check, then a script it writes (`text`), not yet run. */
function beforeScript(text: string): Agent {
  const agent = new Agent();
  agent.call('Bash', CHECK, SYNTAX_ERROR);
  agent.call(
    'Write',
    { file_path: '/srv/app/backend/fix-webhooks.cjs', content: text },
    'File created successfully at: /srv/app/backend/fix-webhooks.cjs',
  );
  return agent;
}

/** `beforeScript`, then the script run, answering `answer`. */
function afterScript(text: string, answer: string): Agent {
  const agent = beforeScript(text);
  agent.call('Bash', { command: 'node fix-webhooks.cjs', description: 'Run fix script' }, answer);
  return agent;
}

describe('a script the agent wrote, then ran', () => {
  it('lets a check that failed on a file run again once a script naming that file ran', () => {
    const agent = afterScript(FIX_SCRIPT, 'Fixed validateWebhookSecrets function');
    expect(agent.check('Bash', CHECK).verdict).toBe('allow');
  });

  it('keeps the check blocked when the script it ran names other files only', () => {
    const agent = afterScript(REPORT_SCRIPT, ' M routes/webhooks.js');
    expect(agent.check('Bash', CHECK).verdict).toBe('block');
  });

  it('keeps the check blocked after the same script ran again and answered as before', () => {
    const agent = afterScript(FIX_SCRIPT, 'Fixed validateWebhookSecrets function');
    agent.call('Bash', CHECK, SYNTAX_ERROR);
    agent.call('Bash', { command: 'node fix-webhooks.cjs' }, 'Fixed validateWebhookSecrets function');
    expect(agent.check('Bash', CHECK).verdict).toBe('block');
  });

  it('reads the files an edit adds to a script it wrote before', () => {
    const agent = afterScript(REPORT_SCRIPT, ' M routes/webhooks.js');
    agent.call(
      'Edit',
      {
        file_path: '/srv/app/backend/fix-webhooks.cjs',
        old_string: "console.log(execSync('git status --short').toString());",
        new_string: "require('fs').writeFileSync('routes/webhooks.js', fixed);",
      },
      'The file /srv/app/backend/fix-webhooks.cjs has been updated successfully.',
    );
    agent.call('Bash', { command: 'node fix-webhooks.cjs' }, '');
    expect(agent.check('Bash', CHECK).verdict).toBe('allow');
  });

  it('remembers what the script names across a restart from the saved state', () => {
    const first = beforeScript(FIX_SCRIPT);
    const second = new Agent();
    second.loop.restore(first.loop.snapshot());
    second.call('Bash', { command: 'node fix-webhooks.cjs' }, 'Fixed validateWebhookSecrets function');
    expect(second.check('Bash', CHECK).verdict).toBe('allow');
  });
});

describe("the scripts' files in saved state", () => {
  it('skips what a hostile or corrupt state holds in their place, and keeps at most 32 files a script', () => {
    const first = beforeScript(FIX_SCRIPT);
    const saved = first.loop.snapshot();
    const session = saved.session as { world: Record<string, unknown> };
    const hostile = [
      // The file the check failed on comes 40th: past the 32 a script keeps.
      [
        'fix-webhooks.cjs',
        [...Array.from({ length: 39 }, (_, index) => `out/${index}.js`), 'routes/webhooks.js'],
      ],
      ['x'.repeat(5_000), ['routes/webhooks.js']],
      'not an entry',
      [42, ['routes/webhooks.js']],
      ['other.py', [{ path: 'routes/webhooks.js' }, 'y'.repeat(5_000)]],
    ];
    for (const scripts of [hostile, 'nothing', { length: 1e9 }]) {
      const second = new Agent();
      second.loop.restore({
        ...saved,
        session: { ...session, world: { ...session.world, scripts } },
      } as never);
      second.call('Bash', { command: 'node fix-webhooks.cjs' }, 'Fixed validateWebhookSecrets function');
      expect(second.check('Bash', CHECK).verdict).toBe('block');
    }
  });
});

describe('a Windows path and its relative spelling', () => {
  it('lets a check that failed on a file named from the drive run again once a script naming it relatively ran', () => {
    const agent = new Agent();
    const check = { command: 'cd "C:/Users/dev/app/backend" && node -c routes/webhooks.js 2>&1' };
    agent.call('Bash', check, {
      ...SYNTAX_ERROR,
      text: SYNTAX_ERROR.text.replace(
        '/srv/app/backend/routes/webhooks.js',
        'C:\\Users\\dev\\app\\backend\\routes\\webhooks.js',
      ),
    });
    agent.call(
      'Write',
      { file_path: 'C:\\Users\\dev\\app\\backend\\fix-webhooks.cjs', content: FIX_SCRIPT },
      'File created successfully at: C:\\Users\\dev\\app\\backend\\fix-webhooks.cjs',
    );
    expect(agent.check('Bash', check).verdict).toBe('block');
    agent.call('Bash', { command: 'cd "C:/Users/dev/app/backend" && node fix-webhooks.cjs' }, 'Fixed');
    expect(agent.check('Bash', check).verdict).toBe('allow');
  });
});
