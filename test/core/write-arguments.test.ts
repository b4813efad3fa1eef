import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const SETTINGS = '/Users/dev/app/src/config/settings.ts';
const MISSING = { error: `Error: file does not exist: ${SETTINGS}` };

describe('a write named in another convention', () => {
  it('creates the file a read found missing, as Windsurf writes TargetFile and CodeContent', () => {
    const agent = new Agent();
    const view = { AbsolutePath: SETTINGS, StartLine: 0, EndLine: 50 };
    agent.call('view_file', view, MISSING);
    const write = { TargetFile: SETTINGS, CodeContent: 'export const port = 3000;\n', EmptyFile: false };
    expect(agent.call('write_to_file', write, `Created file ${SETTINGS}`).check.allowed).toBe(true);
    expect(agent.check('view_file', view).allowed).toBe(true);
  });
});
