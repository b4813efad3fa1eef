import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandModules } from '../../../src/cli/commands/index.js';

function help(name: string): string {
  const program = new Command('narrowing').exitOverride().enablePositionalOptions();
  let text = '';
  program.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: (chunk) => (text += chunk) });
  for (const register of commandModules) register(program);
  const command = program.commands.find((candidate) => candidate.name() === name);
  command?.exitOverride().configureOutput({ writeOut: (chunk) => (text += chunk) });
  try {
    program.parse([name, '--help'], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
  }
  return text;
}

describe('help', () => {
  for (const [name, example] of [
    ['wrap', '$ narrowing-guard wrap filesystem --dry-run'],
    ['unwrap', '$ narrowing-guard unwrap filesystem'],
    ['inspect', '$ narrowing-guard inspect'],
    ['verify', '$ narrowing-guard verify'],
    ['explain', '$ narrowing-guard explain --session'],
  ] as const) {
    it(`shows an example for ${name}`, () => {
      const text = help(name);
      expect(text).toContain(`Usage: narrowing ${name}`);
      expect(text).toContain(example);
      expect(text).toContain('Exit status:');
    });
  }
});
