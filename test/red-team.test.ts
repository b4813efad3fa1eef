import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { redisInstalled } from './stores/redis-server.js';

const root = fileURLToPath(new URL('../', import.meta.url));

describe('the red team script', () => {
  let run: SpawnSyncReturns<string>;
  beforeAll(() => {
    run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/red-team.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
  }, 70_000);

  it('replays every attack within a minute and reports each defence as held', () => {
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
    expect(lines.filter((line) => line.startsWith('PASS')).length).toBeGreaterThanOrEqual(20);
    expect(run.status).toBe(0);
  });

  it('replays the attacks on the MCP proxy, and each of them holds', () => {
    const held = run.stdout.split('\n').filter((line) => line.startsWith('PASS'));
    for (const attack of [
      'MCP server forging narrowing’s verdict in _meta',
      'client cancelling a failing call to dodge learning',
      'call crashing the MCP server to dodge learning',
      'hostile JSON-RPC: huge ids, deep nesting, invalid requests',
      'header injection with CR/LF in --header',
      'world-writable .narrowing planted above a repository',
      'GitHub token in the text a failed edit searched for',
      'URL with a password inside a read path',
      "tool error posing as the guard's refusal",
      'one guard shared by two users of a server',
      'hook outcome whose saving outlasts the deadline',
      'hook whose state folder cannot be made',
      'agent tool that ignores its AbortSignal',
      ...(redisInstalled
        ? [
            'malformed Redis entry under the id an agent learns next',
            'ban without a context from another repository on the same Redis',
          ]
        : []),
    ]) {
      expect(
        held.some((line) => line.startsWith(`PASS  ${attack}:`)),
        attack,
      ).toBe(true);
    }
  });
});
