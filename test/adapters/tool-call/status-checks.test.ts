/**
 * A command that asks a service how a job is going (a CI run, a deployment, a container) is a status
 * check: its answer changes by itself, so asking again is polling, judged by the poll rules (quick
 * unchanged answers steered, then blocked from the sixth, paced checks never), not by the rules on
 * repeated calls.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answersByExitStatus,
  asksOutsideMachine,
  isStatusCheck,
} from '../../../src/adapters/tool-call/command-effects.js';
import { toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import { NarrowingLoop, type Proposal } from '../../../src/index.js';
import { adapter } from './helpers.js';

const RUNNING = (seconds: number) =>
  `in_progress\t\tci: show the linter version\tCI\tmain\tpush\t15926149076\t${seconds}s\t2025-06-27T12:21:00Z`;
const DONE =
  'completed\tfailure\tci: show the linter version\tCI\tmain\tpush\t15926149076\t34s\t2025-06-27T12:21:00Z';

/**
 * Verdicts of one call proposed at each of `times` (ms from the first) by the loop's clock, each that
 * runs answered `result` (a blocked call does not run).
 */
function verdictsAt(proposal: Proposal, result: unknown, times: readonly number[]): string[] {
  const start = Date.UTC(2026, 11, 6, 10);
  let now = start;
  const loop = new NarrowingLoop({ clock: { now: () => now } });
  return times.map((at) => {
    now = start + at;
    const { verdict } = loop.checkProposal(proposal);
    if (verdict !== 'block') loop.recordOutcome(toolCallToOutcome(proposal.tool, proposal.args, result));
    return verdict;
  });
}

/** `asks` asks of one call, `gapMs` apart, each that runs answered `result`: their verdicts. */
function verdictsEvery(proposal: Proposal, result: unknown, gapMs: number, asks = 5): string[] {
  return verdictsAt(
    proposal,
    result,
    Array.from({ length: asks }, (_, index) => index * gapMs),
  );
}

describe('status checks of a job', () => {
  it('lets the check on which a CI run finally finishes through after four unchanged answers', () => {
    const loop = new NarrowingLoop({});
    const args = { command: 'gh run list --limit 1', description: 'List the latest workflow run' };
    const answers = [RUNNING(5), RUNNING(17), RUNNING(24), RUNNING(32), DONE];
    const verdicts = answers.map((answer) => {
      const verdict = loop.checkProposal({ tool: 'run_shell_command', args }).verdict;
      loop.recordOutcome(toolCallToOutcome('run_shell_command', args, answer));
      return verdict;
    });
    expect(verdicts).not.toContain('block');
  });

  it('reads a status check whatever waits or changes of directory come before it', () => {
    expect(isStatusCheck('gh run list --limit 1')).toBe(true);
    expect(isStatusCheck('sleep 30 && gh run view 15926149076')).toBe(true);
    expect(isStatusCheck('cd deploy && kubectl rollout status deployment/api')).toBe(true);
    expect(isStatusCheck('gh pr checks 42 | head -20')).toBe(true);
    expect(isStatusCheck('docker compose ps')).toBe(true);
  });

  it.each([
    ['cd deploy;gh run list', true],
    ['sleep 10\nps aux | grep node', true],
    ['  pgrep -f server', true],
    ['aps list', false],
    ['ghq list', false],
    ['npm run gh', false],
  ])(
    'finds a check after a semicolon, a line break or spaces, never inside a word: %j is %s',
    (line, check) => {
      expect(isStatusCheck(line)).toBe(check);
    },
  );

  it('reads a cloud’s own command line asking how a resource stands as a status check', () => {
    expect(
      isStatusCheck(
        "aws ec2 describe-instances --instance-ids i-0a1b2c3d --query 'Reservations[0].Instances[0].State.Name' --output text",
      ),
    ).toBe(true);
    expect(isStatusCheck('aws --region us-east-1 ecs describe-services --cluster web --services api')).toBe(
      true,
    );
    expect(isStatusCheck('gcloud run services describe api --region europe-west1')).toBe(true);
    expect(isStatusCheck('az deployment group show -g prod -n rollout-17')).toBe(true);
    expect(isStatusCheck('doctl compute droplet get 3164494')).toBe(true);
    expect(isStatusCheck('fly status --app billing')).toBe(true);
  });

  it('does not take a cloud command that changes a resource or downloads one for a status check', () => {
    expect(isStatusCheck('aws ec2 stop-instances --instance-ids i-0a1b2c3d')).toBe(false);
    expect(isStatusCheck('aws s3api get-object --bucket logs --key 2026/12/07.gz day.gz')).toBe(false);
    expect(isStatusCheck('gcloud run deploy api --image eu.gcr.io/acme/api:42')).toBe(false);
    expect(isStatusCheck('az vm restart -g prod -n web-1')).toBe(false);
  });

  it('polls a cloud resource’s state asked again every few seconds: the sixth unchanged answer blocked, then a probe', () => {
    const proposal = {
      tool: 'execute_command',
      args: {
        command:
          "aws ec2 describe-instances --instance-ids i-0a1b2c3d --query 'Reservations[0].Instances[0].State.Name' --output text",
      },
    };
    expect(verdictsEvery(proposal, 'stopping\n', 4_000, 7)).toEqual([
      'allow',
      'allow',
      'warn',
      'warn',
      'warn',
      'block',
      'allow',
    ]);
  });

  it('does not take a command that changes something, or one that only reads files, for a status check', () => {
    expect(isStatusCheck('gh run rerun 15926149076')).toBe(false);
    expect(isStatusCheck('gh run list > runs.txt')).toBe(false);
    expect(isStatusCheck('gh run list && git push')).toBe(false);
    expect(isStatusCheck('kubectl apply -f deploy.yaml')).toBe(false);
    expect(isStatusCheck('cat status.txt')).toBe(false);
  });

  it('gives a status check the kind of a poll', () => {
    expect(adapter.describeCall({ tool: 'Bash', args: { command: 'gh run list --limit 1' } }).kind).toBe(
      'poll',
    );
    expect(adapter.describeCall({ tool: 'Bash', args: { command: 'gh run rerun 42' } }).kind).toBe('exec');
  });
});

describe('a status check that answers by its exit status', () => {
  /** `gh pr checks` while two of its checks still run: it exits 8, as its manual says it does then. */
  const pending = (elapsed: string) =>
    'Exit code 8\nSome checks are still pending\n0 cancelled, 0 failing, 3 successful, 0 skipped, and 2 pending checks\n\n' +
    `   NAME       DESCRIPTION  ELAPSED  URL\n*  test (20)               ${elapsed}  https://github.com/acme/web/actions/runs/812/job/1\n` +
    '✓  lint                    41s      https://github.com/acme/web/actions/runs/812/job/3';

  it.each([
    ['gh pr checks 42', 8, true],
    ['sleep 30 && gh pr checks 42 | tail -5', 8, true],
    ['systemctl is-active nginx', 3, true],
    ['pgrep -f "node server.js"', 1, true],
    ['gh pr checks 42', 1, false],
    ['gh pr merge 42', 8, false],
    ['npm test', 1, false],
    ['gh pr checks 42 > checks.txt', 8, false],
  ])('reads %j exiting %i as an answer: %s', (line, status, answer) => {
    expect(answersByExitStatus(line, status)).toBe(answer);
  });

  it('reads pending checks as an answer of the check, not a failure of the agent', () => {
    const args = { command: 'gh pr checks 42', description: 'Check CI' };
    const outcome = toolCallToOutcome('Bash', args, { isError: true, content: pending('1m2s') });
    expect(outcome.success).toBe(true);
    expect(
      toolCallToOutcome('Bash', args, { isError: true, content: 'Exit code 1\nno pull requests found' })
        .success,
    ).toBe(false);
  });

  it('lets pending checks be asked about every 45 s until they finish, and blocks the sixth unchanged answer in quick succession', () => {
    const args = { command: 'gh pr checks 42', description: 'Check CI' };
    const answer = { isError: true, content: pending('1m2s') };
    expect(verdictsEvery({ tool: 'Bash', args }, answer, 45_000, 7)).not.toContain('block');
    expect(verdictsEvery({ tool: 'Bash', args }, answer, 4_000, 7).indexOf('block')).toBe(5);
  });
});

describe('questions asked outside the machine', () => {
  it('reads a line that only asks a server, a registry or a remote as asking outside', () => {
    for (const line of [
      'curl -s https://staging.acme.dev/healthz',
      'curl -sS https://api.acme.dev/v1/jobs/42 | jq .state',
      'sleep 60 && wget -qO- https://acme.dev/status',
      'cd web && npm view react version',
      'dig +short api.acme.dev | head -1',
      'gh api repos/acme/web/deployments',
      'git ls-remote origin refs/heads/main',
    ]) {
      expect(asksOutsideMachine(line), line).toBe(true);
    }
  });

  it('reads any line a model may send without throwing, and none that redirects or substitutes as only asking', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.constantFrom('>', '<', '$(', '`'), (line, mark) => {
        asksOutsideMachine(line);
        expect(asksOutsideMachine(`curl -s https://acme.dev/${line}${mark}x`)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('does not read a line that runs, writes or changes anything else as only asking outside', () => {
    for (const line of [
      'npm test',
      'curl -s https://acme.dev/install.sh > install.sh',
      'curl -s https://acme.dev/install.sh | bash',
      'curl -s https://acme.dev/healthz && npm run migrate',
      'npm install react',
      'git pull',
      'curlconf show',
    ]) {
      expect(asksOutsideMachine(line), line).toBe(false);
    }
  });

  it('lets a deployment checked every minute and a half answer alike, where checks seconds apart are blocked', () => {
    const health = { tool: 'Bash', args: { command: 'curl -s https://staging.acme.dev/healthz' } };
    expect(verdictsEvery(health, '{"status":"deploying"}', 90_000)).not.toContain('block');
    expect(verdictsEvery(health, '{"status":"deploying"}', 3_000)).toContain('block');
  });

  const notYetPublished = {
    isError: true,
    content:
      "Exit code 1\nnpm error code E404\nnpm error 404 No match found for version 1.4.0\nnpm error 404  '@acme/lib@1.4.0' is not in this registry.",
  };

  it('gives a registry question answered "not found" one retry each minute, and blocks it in between', () => {
    const view = { tool: 'Bash', args: { command: 'npm view @acme/lib@1.4.0 version' } };
    expect(verdictsAt(view, notYetPublished, [0, 30_000, 61_000, 120_000, 182_000])).toEqual([
      'allow',
      'block',
      'allow',
      'block',
      'allow',
    ]);
  });

  it('counts the wait a check makes first: asked after sleep 60, a question answered "not found" is asked again', () => {
    const view = { tool: 'Bash', args: { command: 'sleep 60 && npm view @acme/lib@1.4.0 version' } };
    expect(verdictsAt(view, notYetPublished, [0, 65_000])).toEqual(['allow', 'allow']);
  });

  it('keeps blocking an outside question refused for how it was asked, and a file missing here, minutes later', () => {
    const badFlag = {
      tool: 'Bash',
      args: { command: 'curl -s --retries 3 https://staging.acme.dev/healthz' },
    };
    const refused = {
      isError: true,
      content:
        "Exit code 2\ncurl: option --retries: is unknown\ncurl: try 'curl --help' for more information",
    };
    expect(verdictsAt(badFlag, refused, [0, 5_000, 300_000])).toEqual(['allow', 'block', 'block']);
    const missing = { tool: 'Bash', args: { command: 'cat config/production.yml' } };
    const absent = {
      isError: true,
      content: 'Exit code 1\ncat: config/production.yml: No such file or directory',
    };
    expect(verdictsAt(missing, absent, [0, 5_000, 300_000])).toEqual(['allow', 'block', 'block']);
  });

  it('lets a page of a tool said to reach an open world be read again minutes later', () => {
    // A server's tool whose name says nothing of the web: only its annotations say where it reads.
    const docs = {
      tool: 'read_docs_page',
      args: { page: 'sdk/retries' },
      annotations: { readOnlyHint: true, openWorldHint: true },
    };
    const answer = 'Set `maxRetries` on the client options.';
    expect(verdictsEvery(docs, answer, 90_000)).toEqual(Array(5).fill('allow'));
    expect(verdictsEvery(docs, answer, 6_000)).toContain('block');
  });
});
