import { describe, expect, it } from 'vitest';
import { commandText } from '../../../src/adapters/tool-call/call-arguments.js';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/index.js';

describe('commandText', () => {
  it('reads the script of a shell given with its arguments, as Codex passes a command', () => {
    expect(commandText({ command: ['bash', '-lc', 'cargo check --all'] })).toBe('cargo check --all');
    expect(commandText({ command: ['/bin/zsh', '-c', 'npm test'] })).toBe('npm test');
    expect(commandText({ command: ['pwsh', '-NoProfile', '-Command', 'Get-ChildItem src'] })).toBe(
      'Get-ChildItem src',
    );
  });

  it('joins the words of any other command given as a list', () => {
    expect(commandText({ command: ['cargo', 'check'] })).toBe('cargo check');
    expect(commandText({ command: ['bash', 'scripts/release.sh'] })).toBe('bash scripts/release.sh');
  });

  it('names the program of the script, not the shell that runs it', () => {
    const adapter = createToolCallAdapter();
    const facts = adapter.describeCall({
      tool: 'shell',
      args: { command: ['bash', '-lc', 'apply_patch -h'], workdir: '/home/dev/app' },
    });
    expect(facts.program).toBe('apply_patch');
  });
});
