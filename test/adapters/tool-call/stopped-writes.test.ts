import { describe, expect, it } from 'vitest';
import { toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import { adapter } from './helpers.js';

/** What the adapter reads of a `Bash` call stopped with `exitCode` (124: timed out; 137: killed). */
function stopped(command: string, exitCode = 124, stderr = '') {
  const outcome = toolCallToOutcome('Bash', { command }, { stdout: '', stderr, exitCode });
  return adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
}

describe('a command stopped before it ended may have written part of what it writes', () => {
  it('reads a scaffolder that timed out as having maybe written', () => {
    expect(stopped('npx create-vite@latest app --template react-ts')?.mayHaveWritten).toBe(true);
  });

  it('reads a package install killed in a folder as having maybe written', () => {
    expect(stopped('cd web && npm install', 137)?.mayHaveWritten).toBe(true);
  });

  it('reads a pip install run by Python as having maybe written', () => {
    expect(stopped('python3 -m pip install -r requirements.txt')?.mayHaveWritten).toBe(true);
  });

  it('reads a redirection to a file that timed out as having maybe written', () => {
    expect(stopped('./scripts/export.sh > out/report.csv')?.mayHaveWritten).toBe(true);
  });

  it('reads a clone that timed out on the network as having maybe written', () => {
    const text =
      "fatal: unable to access 'https://github.com/pallets/flask.git/': Failed to connect to github.com port 443 after 130040 ms: Connection timed out";
    expect(stopped('git clone https://github.com/pallets/flask.git', 128, text)?.mayHaveWritten).toBe(true);
  });

  it("reads a tool's set-up in the project that timed out as having maybe written", () => {
    expect(stopped('npx shadcn@latest init -y --base-color neutral')?.mayHaveWritten).toBe(true);
  });

  it('reads a test run that timed out as having written nothing', () => {
    expect(stopped('pytest tests/test_orders.py -x')?.mayHaveWritten).toBeUndefined();
  });

  it('reads a script the shell reader cannot see writing, timed out, as having written nothing', () => {
    expect(stopped('python3 fetch_fixtures.py')?.mayHaveWritten).toBeUndefined();
  });

  it('reads a download to the terminal that timed out as having written nothing', () => {
    expect(stopped('curl -s https://api.github.com/repos/pallets/flask')?.mayHaveWritten).toBeUndefined();
  });

  it('reads an install that failed on its own as no stop', () => {
    const text =
      'npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found';
    expect(stopped('npm install left-padd', 1, text)?.mayHaveWritten).toBeUndefined();
  });
});
