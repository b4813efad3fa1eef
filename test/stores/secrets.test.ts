import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { NarrowingLoop } from '../../src/narrowing.js';
import { createFileStore, parseStateText } from '../../src/stores/index.js';
import { stateToText } from '../../src/stores/schema.js';
import { missingFile, stateOf, temporaryDir } from './sample-state.js';

const GITHUB_TOKEN = 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12';
const OPENAI_KEY = 'sk-proj-Xa12Bc34De56Fg78Hi90Jk12';

let dir: string;
let remove: () => void;
let path: string;

beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'state.json');
});
afterEach(() => remove());

/** What an older version wrote: evidence kept verbatim. */
function leakyConstraint() {
  const now = Date.now();
  return missingFile('config/app.yaml', now, {
    evidence: {
      failures: 2,
      firstAt: now - 1_000,
      lastAt: now,
      lastError: `curl: (22) The requested URL returned error: 404 https://api.github.com/repos/acme/api/contents/config/app.yaml?access_token=${GITHUB_TOKEN}`,
      calls: [`bash {command: "OPENAI_API_KEY=${OPENAI_KEY} python fetch.py config/app.yaml"}`],
    },
  });
}

function failClone(loop: NarrowingLoop): void {
  const command = `git clone https://x-access-token:${GITHUB_TOKEN}@github.com/acme/missing.git`;
  const proposal = toolCallToProposal('bash', { command });
  loop.checkProposal(proposal);
  const text =
    "Cloning into 'missing'...\nremote: Repository not found.\n" +
    `fatal: repository 'https://x-access-token:${GITHUB_TOKEN}@github.com/acme/missing.git/' not found`;
  loop.recordOutcome({
    ...toolCallToOutcome('bash', proposal.args, { content: [{ type: 'text', text }], isError: true }),
    proposal,
  });
}

describe('secrets in learned state', () => {
  it('writes no credential from evidence to the state file', () => {
    const text = stateToText(stateOf([leakyConstraint()]));
    expect(text).not.toContain(GITHUB_TOKEN);
    expect(text).not.toContain(OPENAI_KEY);
    expect(text).toContain('access_token=[REDACTED]');
  });

  it('reads a state file written before redaction without its credentials', () => {
    const parsed = parseStateText(JSON.stringify(stateOf([leakyConstraint()])));
    expect(parsed.ok).toBe(true);
    expect(JSON.stringify(parsed)).not.toContain(GITHUB_TOKEN);
    expect(JSON.stringify(parsed)).not.toContain(OPENAI_KEY);
  });

  it('does not repeat a token from a command or its error in a block reason', () => {
    const loop = new NarrowingLoop();
    failClone(loop);
    failClone(loop);
    const verdict = loop.checkProposal(
      toolCallToProposal('bash', {
        command: `git clone https://x-access-token:${GITHUB_TOKEN}@github.com/acme/missing.git`,
      }),
    );
    expect(verdict.verdict).toBe('block');
    expect(verdict.reason).not.toContain(GITHUB_TOKEN);
    expect(JSON.stringify(verdict.violations)).not.toContain(GITHUB_TOKEN);
  });

  it('does not repeat a credential from an older state file to the model in a later session', () => {
    writeFileSync(path, JSON.stringify(stateOf([leakyConstraint()])));
    const loop = new NarrowingLoop({
      statePath: path,
      // Where the older session learned it: a constraint holds only in the context it was learned in.
      policy: { context: { repository: 'github.com/acme/api' } },
      onProblem: () => undefined,
    });
    const verdict = loop.checkProposal(toolCallToProposal('read_file', { path: 'config/app.yaml' }));
    expect(verdict.verdict).toBe('block');
    expect(verdict.reason).toContain('[REDACTED]');
    expect(verdict.reason).not.toContain(GITHUB_TOKEN);
  });

  it('saves what a session learned without the credential its error printed', async () => {
    const store = createFileStore({ path, debounceMs: 5 });
    const loop = new NarrowingLoop({ store, probe: { exists: () => undefined } });
    for (let attempt = 0; attempt < 2; attempt++) {
      const proposal = toolCallToProposal('read_file', { path: 'config/app.yaml' });
      loop.checkProposal(proposal);
      const text =
        "Error: ENOENT: no such file or directory, open 'config/app.yaml' " +
        '(loaded from DATABASE_URL=postgres://app:S3cr3tPa55w0rd@db.internal:5432/app)';
      loop.recordOutcome({
        ...toolCallToOutcome('read_file', proposal.args, {
          content: [{ type: 'text', text }],
          isError: true,
        }),
        proposal,
      });
    }
    await loop.close();
    await store.close();
    const saved = readFileSync(path, 'utf8');
    expect(saved).toContain('config/app.yaml');
    expect(saved).not.toContain('S3cr3tPa55w0rd');
  });

  it('saves a read of a path holding a URL with a password without the password', async () => {
    const store = createFileStore({ path, debounceMs: 5 });
    const loop = new NarrowingLoop({ store, probe: { exists: () => undefined } });
    const file = 'mirror/https://deploy:Hunter2Secret99@git.example.com/acme/api/README.md';
    for (let attempt = 0; attempt < 2; attempt++) {
      const proposal = toolCallToProposal('read_file', { path: file });
      loop.checkProposal(proposal);
      loop.recordOutcome({
        ...toolCallToOutcome('read_file', proposal.args, {
          content: [{ type: 'text', text: `Error: ENOENT: no such file or directory, open '${file}'` }],
          isError: true,
        }),
        proposal,
      });
    }
    const verdict = loop.checkProposal(toolCallToProposal('read_file', { path: file }));
    await loop.close();
    await store.close();
    expect(verdict.verdict).toBe('block');
    expect(JSON.stringify(verdict)).not.toContain('Hunter2Secret99');
    const saved = readFileSync(path, 'utf8');
    expect(saved).toContain('git.example.com');
    expect(saved).not.toContain('Hunter2Secret99');
  });
});
