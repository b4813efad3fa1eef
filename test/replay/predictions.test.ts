import { describe, expect, it } from 'vitest';
import { checkPredictions } from '../../src/replay/predictions.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseTrace } from '../../src/trace/index.js';

function trace(...lines: object[]) {
  return parseTrace(lines.map((line) => JSON.stringify(line)).join('\n'), 'test.jsonl');
}

const run = (command: string, result: object) => ({ type: 'call', tool: 'Bash', args: { command }, result });
const MISSING = { isError: true, content: "Exit code 1\nError: Cannot find module '/app/dist/server.js'" };

function checked(...lines: object[]) {
  const events = trace(...lines);
  return checkPredictions(events, replayTrace(events).steps);
}

describe('checkPredictions', () => {
  it('says a block held when the blocked call failed as the same call had before', () => {
    const checks = checked(...Array.from({ length: 4 }, () => run('node dist/server.js', MISSING)));
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.every((check) => check.outcome === 'held' && check.evidence === 'same-call')).toBe(true);
  });

  it('says a block was wrong when the blocked call succeeded in the recording', () => {
    const checks = checked(
      run('node dist/server.js', MISSING),
      run('node dist/server.js', MISSING),
      run('node dist/server.js', MISSING),
      run('node dist/server.js', { content: 'listening on :3000' }),
    );
    expect(checks.at(-1)).toMatchObject({ step: 4, outcome: 'new-success', evidence: 'same-call' });
  });

  it('says a block was wrong when the blocked call failed with another error shape', () => {
    const checks = checked(
      run('node dist/server.js', MISSING),
      run('node dist/server.js', MISSING),
      run('node dist/server.js', MISSING),
      run('node dist/server.js', {
        isError: true,
        content: 'Exit code 1\nError: listen EADDRINUSE: address already in use :::3000',
      }),
    );
    expect(checks.at(-1)).toMatchObject({ step: 4, outcome: 'new-error' });
  });

  it('says a stop on empty answers held when the query it stopped found nothing too', () => {
    const filters = [
      '.plans[] | select(.id == "team")',
      '.plans["team"]',
      '.plans | map(.id)',
      '.pricing.team',
      '.. | .team? // empty',
      '.tiers[] | select(.name == "Team")',
      '.team',
    ];
    const checks = checked(...filters.map((filter) => run(`jq '${filter}' plans.json`, { content: '' })));
    const stops = checks.filter((check) => check.rule === 'non-advancing');
    expect(stops.length).toBeGreaterThan(0);
    expect(stops.every((check) => check.outcome === 'held')).toBe(true);
  });

  it('says a stop on empty answers held when the search it stopped failed finding nothing too, in other words', () => {
    const search = (query: string, year?: number) => ({
      type: 'call',
      tool: 'web_search',
      args: year === undefined ? { query } : { query, filter_year: year },
      result: {
        isError: true,
        content:
          year === undefined
            ? `No results found for query: '${query}'. Use a less restrictive query.`
            : `No results found for query: '${query}' with filtering on year=${year}. Use a less restrictive query or do not filter on year.`,
      },
    });
    const checks = checked(
      search('acme pricing team plan'),
      search('acme team plan price'),
      search('Acme Team tier monthly cost'),
      search('acme pricing page team'),
      search('how much is acme team'),
      search('acme team plan per seat', 2025),
      search('acme team subscription price', 2025),
    );
    const stops = checks.filter((check) => check.rule === 'non-advancing');
    expect(stops.length).toBeGreaterThan(0);
    expect(stops.every((check) => check.outcome === 'held')).toBe(true);
  });

  it('says a stop on empty answers was wrong when the query it stopped found something', () => {
    const filters = ['.plans[0]', '.plans["team"]', '.pricing.team', '.. | .team? // empty', '.team'];
    const checks = checked(
      ...filters.map((filter) => run(`jq '${filter}' plans.json`, { content: 'null' })),
      run(`jq 'keys' plans.json`, { content: '[\n  "tiers"\n]' }),
    );
    expect(checks.at(-1)).toMatchObject({ rule: 'non-advancing', outcome: 'new-success' });
  });

  it('says a block of a call the recording never answered was not run', () => {
    const events = trace(
      run('node dist/server.js', MISSING),
      run('node dist/server.js', MISSING),
      run('node dist/server.js', MISSING),
      { type: 'call', tool: 'Bash', args: { command: 'node dist/server.js' } },
    );
    const checks = checkPredictions(events, replayTrace(events).steps);
    expect(checks.at(-1)).toMatchObject({ step: 4, outcome: 'not-run', evidence: 'none' });
  });

  it('says a block of a call the environment answered in its place was not run', () => {
    const checks = checked(
      run('node dist/server.js', MISSING),
      run('node dist/server.js', MISSING),
      run('node dist/server.js', MISSING),
      run('node dist/server.js', {
        isError: true,
        content: 'Error response from daemon: No such container: ctfenv',
      }),
    );
    expect(checks.at(-1)).toMatchObject({ step: 4, outcome: 'not-run', evidence: 'none' });
  });
});
