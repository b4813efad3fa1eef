import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const SYMBOLS = ['parseConfig', 'loadSettings', 'readEnvFile', 'configFromEnv', 'envLoader', 'settingsOf'];
const noMatches = (pattern: string) => `No matches found for pattern "\\b${pattern}\\b" in path ".".`;

// A search of documentation, not of code: code searches that find nothing for new patterns explore.
describe('searches that find nothing', () => {
  it('blocks the sixth search in a row that found nothing, and says to report what is missing', () => {
    const agent = new Agent();
    const verdicts = SYMBOLS.map(
      (name) => agent.call('search_docs', { query: `\\b${name}\\b` }, noMatches(name)).check,
    );
    expect(verdicts.map((check) => check.allowed)).toEqual([true, true, true, true, true, false]);
    expect(verdicts[5]).toMatchObject({ rule: 'non-advancing' });
    expect(verdicts[5]?.suggestion).toContain('missing');
  });

  it('counts empty JSON lists from an API the same way', () => {
    const agent = new Agent();
    // Other places, not a sweep of dates in order (a sweep explores, and is not counted).
    const places = ['PHL', 'BOS', 'DCA', 'EWR', 'JFK', 'LGA'];
    const verdicts = places.map(
      (destination) =>
        agent.call('search_direct_flight', { origin: 'ORD', destination, date: '2024-05-10' }, '[]').check
          .verdict,
    );
    expect(verdicts.at(-1)).toBe('block');
  });

  it('starts counting again once something changed the world', () => {
    const agent = new Agent();
    for (const name of SYMBOLS.slice(0, 5)) agent.call('search_docs', { query: name }, noMatches(name));
    agent.call(
      'write_file',
      { path: 'src/config.ts', content: 'export function envLoader() {}\n' },
      'Wrote src/config.ts',
    );
    expect(agent.check('search_docs', { query: 'envLoader' }).allowed).toBe(true);
  });

  it('does not count empty files as searches that found nothing', () => {
    const agent = new Agent();
    const inits = ['a', 'b', 'c', 'd', 'e', 'f'].map((dir) => `pkg/${dir}/__init__.py`);
    const verdicts = inits.map((path) => agent.call('read_file', { path }, '').check.verdict);
    expect(verdicts).not.toContain('block');
  });
});

describe('commands whose output changes only by the clock', () => {
  const uptime = (clock: string, up: string, load: string) =>
    ` ${clock} up 3 days, ${up},  2 users,  load average: ${load}\n`;

  it('blocks uptime run back to back when only its clock, uptime and load changed', () => {
    const agent = new Agent();
    const outputs = [
      uptime('17:04:01', '4:12', '0.52, 0.58, 0.59'),
      uptime('17:04:06', '4:12', '0.55, 0.58, 0.59'),
      uptime('17:04:11', '4:12', '0.61, 0.59, 0.59'),
      uptime('17:04:16', '4:12', '0.48, 0.57, 0.59'),
      uptime('17:05:21', '4:13', '0.44, 0.56, 0.58'),
    ];
    const verdicts = outputs.map((text) => agent.call('Bash', { command: 'uptime' }, text).check.verdict);
    expect(verdicts.slice(0, 2)).toEqual(['allow', 'allow']);
    expect(verdicts.at(-1)).toBe('block');
  });

  it('lets a command whose output really changes run on', () => {
    const agent = new Agent();
    const outputs = ['3 files', '4 files', '5 files', '6 files', '7 files'].map(
      (count, index) => `Wed Nov 25 17:0${index}:00 UTC 2026\n${count} in build/\n`,
    );
    const verdicts = outputs.map(
      (text) => agent.call('Bash', { command: 'date; ls build | wc -l' }, text).check.verdict,
    );
    expect(verdicts).not.toContain('block');
  });
});

describe('failures that name the configuration file they are about', () => {
  const missingLint = { isError: true, text: 'npm error Missing script: "lint"\nexit code 1' };

  it('says which file must change when an edit of another file does not cure a missing script', () => {
    const agent = new Agent();
    agent.call('Bash', { command: 'npm run lint' }, missingLint);
    agent.call(
      'Edit',
      { file_path: 'src/app.ts', old_string: 'let a = 1', new_string: 'const a = 1' },
      'The file src/app.ts has been updated.',
    );
    const { check } = agent.call('Bash', { command: 'npm run lint' }, missingLint);
    expect(check.verdict).toBe('block');
    expect(check.reason).toContain('package.json has not changed since');
    expect(check.reason).not.toContain('no file has changed');
  });
});
