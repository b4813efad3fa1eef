import { describe, expect, it } from 'vitest';
import { nameReadings, serverOf } from '../../../src/adapters/tool-call/tool-names.js';

describe('tool names', () => {
  it('gives the server of an MCP name and the namespace before the last dot or slash', () => {
    expect(serverOf('mcp__github__create_issue')).toBe('github');
    expect(serverOf('github.create_issue')).toBe('github');
    expect(serverOf('tools/fs.read_file')).toBe('tools.fs');
    expect(serverOf('read_file')).toBe('');
  });

  it('reads a namespaced name by its last part first, then whole', () => {
    expect(nameReadings('fs/readFile')).toEqual([
      ['read', 'file'],
      ['fs', 'read', 'file'],
    ]);
    expect(nameReadings('Bash')).toEqual([['bash']]);
  });
});
