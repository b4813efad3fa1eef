import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '../../src/demo/run.js';

const root = resolve(import.meta.dirname, '..', '..');

describe('the demonstration npm start runs', () => {
  let output = '';
  let code = -1;

  beforeAll(async () => {
    // The demo starts the proxy from the built command, as a user's MCP client would.
    if (!existsSync(join(root, 'dist', 'cli', 'main.js')))
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    code = await runDemo({ write: (text) => (output += text) });
  }, 60_000);

  it('finishes successfully', () => {
    expect(code).toBe(0);
  });

  it('blocks the retry of a missing file, an edit with absent text and a re-read loop', () => {
    expect(output).toMatch(/3 {2}BLOCK {2}read_text_file config\/prod\.yaml/);
    expect(output).toContain('absent-text:');
    expect(output).toMatch(/BLOCK {2}read_text_file src\/price\.js +re-read, unchanged: a loop/);
  });

  it('never blocks the legitimate moves: the correct edit, the re-read after it, the file it created', () => {
    expect(output).toMatch(/allow {2}edit_file src\/price\.js +edit with the text that is there/);
    expect(output).toMatch(/allow {2}read_text_file src\/price\.js +read the file again after editing it/);
    expect(output).toMatch(/allow {2}read_text_file config\/prod\.yaml +read the config it just created/);
  });

  it('blocks a failure learned before the proxy restarted on the first attempt after it', () => {
    expect(output).toMatch(/Session 2[^\n]*\n[^\n]*BLOCK {2}read_text_file \.env\.production/);
  });

  it('verifies the receipts and checks every block against the server itself', () => {
    expect(output).toContain('Receipts verified');
    expect(output).toContain('Checked against the server itself');
  });

  it('names the command narrowing-guard and counts in words that agree with the number', () => {
    expect(output).toContain('narrowing-guard mcp -- mcp-server-filesystem');
    expect(output).not.toMatch(/\b1 learned constraints\b/);
    expect(output).toMatch(/\d+ learned constraints? loaded/);
  });
});
