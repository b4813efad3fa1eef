/**
 * A credential a call carries stays out of everything the guard keeps, wherever it reappears: the
 * tool's error, the learned ban, the state file, the journal, the refusal the model reads.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createJournal } from '../../src/audit/index.js';
import { openGuardSync } from '../../src/guard/open.js';
import { verdictText } from '../../src/guard/verdict.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir`, read as text, joined. */
function everythingKept(dir: string): string {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}

/** Runs a failing call twice and checks it a third time; returns what the model reads and what is kept. */
async function failTwice(tool: string, args: Record<string, unknown>, error: string) {
  const project = mkdtempSync(join(tmpdir(), 'narrowing-echo-'));
  dirs.push(project);
  const stateDir = join(project, '.narrowing');
  const guard = openGuardSync({
    stateDir,
    workspaceRoot: project,
    probe: false,
    // Arguments kept (redacted), not only digested: the strictest test of what the journal holds.
    journal: createJournal({ path: join(stateDir, 'journal.jsonl'), content: 'redacted' }),
    onProblem: () => undefined,
  });
  const proposal = { tool, args };
  for (let round = 0; round < 2; round++) {
    guard.check(proposal);
    guard.record({ proposal, success: false, content: error, exitCode: 1 });
  }
  const refusal = verdictText(guard.check(proposal));
  const active = JSON.stringify(guard.engine.getActiveConstraints());
  await guard.close();
  return { refusal, active, kept: everythingKept(stateDir) };
}

describe('a credential the tool echoes back', () => {
  it('is redacted in the error when the arguments carried it under a secret key', async () => {
    const key = 'zq8XvL2mT9wR4bK7pN3s';
    const { refusal, active, kept } = await failTwice(
      'deploy_service',
      { service: 'billing', api_key: key },
      `Error: credential ${key} rejected by the deploy API (403)`,
    );
    expect(kept).toContain('rejected by the deploy API');
    for (const text of [refusal, active, kept]) expect(text).not.toContain(key);
  });

  it('is redacted when it was piped into docker login, whatever its shape', async () => {
    const password = 'Opaque-pw-7781';
    const command = `echo ${password} | docker login -u ci --password-stdin registry.example.com`;
    const { refusal, active, kept } = await failTwice(
      'bash',
      { command },
      `Error response from daemon: login attempt to https://registry.example.com/v2/ failed for ${password}: unauthorized`,
    );
    expect(kept).toContain('docker login');
    for (const text of [refusal, active, kept]) expect(text).not.toContain(password);
  });

  it('is redacted when it is an AWS secret access key given to aws configure', async () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const { refusal, active, kept } = await failTwice(
      'bash',
      { command: `aws configure set aws_secret_access_key ${secret} && aws s3 ls s3://acme-private` },
      `An error occurred (SignatureDoesNotMatch): the key ${secret} does not match`,
    );
    for (const text of [refusal, active, kept]) expect(text).not.toContain(secret);
  });
});
