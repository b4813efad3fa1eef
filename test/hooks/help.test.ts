import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandModules } from '../../src/cli/commands/index.js';
import { HOOK_HELP } from '../../src/hooks/help.js';

/** What `narrowing-guard <words…> --help` prints through the command line (not the hook's own entry). */
function help(...words: string[]): { readonly text: string; readonly program: Command } {
  const program = new Command('narrowing-guard').exitOverride().enablePositionalOptions();
  let text = '';
  const output = {
    writeOut: (chunk: string) => (text += chunk),
    writeErr: (chunk: string) => (text += chunk),
  };
  program.configureOutput(output);
  for (const register of commandModules) register(program);
  for (const command of program.commands) {
    command.exitOverride().configureOutput(output);
    for (const sub of command.commands) sub.exitOverride().configureOutput(output);
  }
  try {
    program.parse([...words, '--help'], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
  }
  return { text, program };
}

describe('help for the hooks', () => {
  it('`narrowing-guard help hook` documents the helper, examples and exit codes as the hook itself does', () => {
    const { text } = help('hook');
    expect(text).toBe(`${HOOK_HELP}\n`);
    for (const part of ['The helper:', 'Exit codes:', 'Examples:', '--no-daemon', '--idle-ms'])
      expect(text).toContain(part);
  });

  it('`bench --help` names every benchmark, hooks among them', () => {
    const { text, program } = help('bench');
    const bench = program.commands.find((command) => command.name() === 'bench') as Command;
    const names = bench.commands.map((command) => command.name()).filter((name) => name !== 'help');
    expect(names).toContain('hooks');
    const summary = text.split('\n\n')[1]?.replace(/\s+/g, ' ') ?? '';
    for (const name of names) expect(summary).toContain(name);
  });
});
