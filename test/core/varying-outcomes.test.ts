import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const SHELLS = ['Bash', 'run_shell_command', 'run_terminal_cmd', 'exec_command'];
const E2E = {
  command: 'cd /home/dev/shop/web && npm run test:e2e -- tests/e2e/chat.spec.ts:50 --reporter=line',
};

/** A failing end-to-end run whose assertion is `finding`. */
function e2eFailure(finding: string, run: number): { text: string; isError: true } {
  return {
    text: [
      '> shop-web@1.0.0 test:e2e',
      '> playwright test tests/e2e/chat.spec.ts:50 --reporter=line',
      'Running 1 test using 1 worker',
      `Setting up test environment for run: test-17581240${run}7302-mvjn9sxya`,
      '  1) [chromium] › tests/e2e/chat.spec.ts:50:7 › Chat › can send message in existing conversation',
      `    ${finding}`,
      '  1 failed',
    ].join('\n'),
    isError: true,
  };
}

describe('a call whose answer is not a function of what the guard sees', () => {
  it('lets a third run through when the two failures before it answered differently', () => {
    for (const shell of SHELLS) {
      const agent = new Agent();
      agent.call(
        shell,
        E2E,
        e2eFailure('Error: expect(locator).toBeDisabled() failed: unexpected value "enabled"', 1),
      );
      agent.call(shell, E2E, e2eFailure('Error: page.waitForResponse: Test timeout of 30000ms exceeded.', 2));
      expect(agent.check(shell, E2E).verdict).toBe('allow');
    }
  });

  it('blocks the third run when the two failures before it answered alike, volatile parts aside', () => {
    for (const shell of SHELLS) {
      const agent = new Agent();
      const finding = 'Error: expect(received).toBeTruthy() Received: false';
      agent.call(shell, E2E, e2eFailure(finding, 1));
      agent.call(shell, E2E, e2eFailure(finding, 2));
      expect(agent.check(shell, E2E).verdict).toBe('block');
    }
  });

  it('never bans a test run on one failure, however certain its words', () => {
    const selector =
      'Error: Unexpected token "[" while parsing css selector "div.max-w-[70%]". Did you mean to CSS.escape it?';
    for (const shell of SHELLS) {
      const agent = new Agent();
      agent.call(shell, E2E, e2eFailure(selector, 1));
      expect(agent.check(shell, E2E).verdict).toBe('allow');
    }
  });

  it('needs two failures of a test run under the strict preset too', () => {
    const agent = new Agent({ policy: { preset: 'strict' } });
    const finding =
      'Error: Unexpected token "[" while parsing css selector "div.max-w-[70%]". Did you mean to CSS.escape it?';
    agent.call('run_terminal_cmd', E2E, e2eFailure(finding, 1));
    expect(agent.check('run_terminal_cmd', E2E).verdict).toBe('allow');
    agent.call('run_terminal_cmd', E2E, e2eFailure(finding, 2));
    expect(agent.check('run_terminal_cmd', E2E).verdict).toBe('block');
  });

  it('still bans a script that is no test run on its first deterministic failure', () => {
    const agent = new Agent();
    const missing = { text: 'bash: line 1: ./deploy.sh: No such file or directory', isError: true };
    agent.call('Bash', { command: './deploy.sh' }, missing);
    expect(agent.check('Bash', { command: './deploy.sh' }).verdict).toBe('block');
  });
});

describe('a new message from the user', () => {
  const BLAZE = {
    text: [
      "=== Deploying to 'acme-storefront-staging'...",
      '',
      'i  deploying functions',
      'i  functions: ensuring required API cloudbuild.googleapis.com is enabled...',
      '!  functions: missing required API cloudbuild.googleapis.com. Enabling now...',
      '',
      "Error: Your project acme-storefront-staging must be on the Blaze (pay-as-you-go) plan to complete this command. Required API cloudbuild.googleapis.com can't be enabled until the upgrade is complete. To upgrade, visit the following URL:",
      '',
      'https://console.firebase.google.com/project/acme-storefront-staging/usage/details',
    ].join('\n'),
    isError: true,
  };
  const create = {
    server_name: 'github',
    tool_name: 'create_issue',
    arguments: { owner: 'acme', repo: 'shop', title: 'Fix failing Postman runs' },
  };
  const notFound = {
    text: 'Error executing MCP tool: {"code":-32603,"message":"MCP error -32603: Not Found: Resource not found: Not Found"}',
    isError: true,
  };

  it('gives a command that failed one retry: the user may have started what it needed', () => {
    for (const shell of SHELLS) {
      const agent = new Agent();
      const smoke = { command: 'node scripts/smoke.js --port 3001' };
      const failed = { text: "Error: Cannot find module '/home/dev/shop/scripts/smoke.js'", isError: true };
      agent.call(shell, smoke, failed);
      expect(agent.check(shell, smoke).verdict).toBe('block');
      agent.loop.newRun('user');
      expect(agent.check(shell, smoke).verdict).toBe('allow');
    }
  });

  it('gives a tool-server call that names nothing the guard follows one retry', () => {
    const agent = new Agent();
    agent.call('use_mcp_tool', create, notFound);
    expect(agent.check('use_mcp_tool', create).verdict).toBe('block');
    agent.loop.newRun('user');
    expect(agent.check('use_mcp_tool', create).verdict).toBe('allow');
  });

  it('gives a call to a named server one retry, whatever it names: the user may have set its token since', () => {
    for (const [tool, args] of [
      ['use_mcp_tool', create],
      ['mcp__github__create_issue', create.arguments],
    ] as const) {
      const agent = new Agent();
      agent.call(tool, args, notFound);
      expect(agent.check(tool, args).verdict).toBe('block');
      agent.loop.newRun('user');
      expect(agent.call(tool, args, notFound).check.verdict).toBe('allow');
      expect(agent.check(tool, args).verdict).toBe('block');
    }
  });

  it('gives a command that failed one retry once the user answers a question the agent asked', () => {
    const deploy = {
      command: 'firebase deploy --only functions --project acme-storefront-staging',
      dir_path: 'functions',
      description: "Deploy only the Cloud Functions to the 'acme-storefront-staging' Firebase project.",
    };
    const question = { questions: [{ question: 'Upgrade acme-storefront-staging to Blaze, then say go.' }] };
    for (const ask of ['ask_user', 'AskUserQuestion', 'ask_followup_question']) {
      const agent = new Agent();
      agent.call('run_shell_command', deploy, BLAZE);
      expect(agent.check('run_shell_command', deploy).verdict).toBe('block');
      agent.call(ask, question, '{"answers":{"0":"go"}}');
      expect(agent.check('run_shell_command', deploy).verdict).toBe('allow');
    }
  });

  it('keeps the ban when the question never reached the user', () => {
    const agent = new Agent();
    const deploy = {
      command: 'firebase deploy --only functions --project acme-storefront-staging',
      dir_path: 'functions',
      description: "Deploy only the Cloud Functions to the 'acme-storefront-staging' Firebase project.",
    };
    agent.call('run_shell_command', deploy, BLAZE);
    agent.call(
      'ask_user',
      { questions: [{ header: 'Firebase Plan Upgrade', question: 'Upgrade to Blaze?' }] },
      { text: 'params/questions/0/header must NOT have more than 16 characters', isError: true },
    );
    expect(agent.check('run_shell_command', deploy).verdict).toBe('block');
  });
});
