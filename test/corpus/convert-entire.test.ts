import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CheckpointSession,
  checkpointSession,
  convertCheckpointSession,
  latestCopies,
} from '../../scripts/corpus/convert-entire.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const metadata = (sessionId: string, createdAt: string, agent = 'Claude Code') =>
  JSON.stringify({
    checkpoint_id: '085de903e0fb',
    session_id: sessionId,
    strategy: 'manual-commit',
    created_at: createdAt,
    agent,
  });

describe('Entire checkpoints', () => {
  it("reads a checkpoint session's id, agent and time from its metadata", () => {
    expect(
      checkpointSession('08/5de903e0fb/1/metadata.json', metadata('s-1', '2026-02-03T06:34:50Z'), 120),
    ).toEqual({
      dir: '08/5de903e0fb/1',
      sessionId: 's-1',
      agent: 'Claude Code',
      createdAt: '2026-02-03T06:34:50Z',
      transcriptSize: 120,
    });
  });

  it("leaves out a checkpoint's own metadata, which names no session, and files that are not JSON", () => {
    expect(checkpointSession('08/5de903e0fb/metadata.json', metadata('s-1', 'x'), 1)).toBeUndefined();
    expect(checkpointSession('08/5de903e0fb/0/metadata.json', '{"checkpoints_count": 2}', 1)).toBeUndefined();
    expect(checkpointSession('08/5de903e0fb/0/metadata.json', 'not json', 1)).toBeUndefined();
  });

  it('keeps the latest copy of a session that several commits checkpointed', () => {
    const copy = (dir: string, createdAt: string, size: number): CheckpointSession => ({
      dir,
      sessionId: 's-1',
      agent: 'Claude Code',
      createdAt,
      transcriptSize: size,
    });
    const first = copy('00/c9e2351016/0', '2026-02-03T06:00:00Z', 100);
    const second = copy('7a/0000000000/0', '2026-02-03T07:00:00Z', 300);
    const missing = copy('ff/0000000000/0', '2026-02-03T08:00:00Z', 0);
    expect(latestCopies([second, missing, first])).toEqual([second]);
  });

  it('keeps exactly one copy of every session with a transcript, none later than it', () => {
    const session = fc.record({
      dir: fc.stringMatching(/^[0-9a-f]{2}\/[0-9a-f]{4}\/[0-3]$/),
      sessionId: fc.constantFrom('a', 'b', 'c'),
      agent: fc.constant('Claude Code'),
      createdAt: fc.constantFrom('2026-01-01', '2026-01-02', '2026-01-03'),
      transcriptSize: fc.nat({ max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(session, { maxLength: 12 }), (sessions) => {
        const kept = latestCopies(sessions);
        const present = sessions.filter((s) => s.transcriptSize > 0);
        expect(new Set(kept.map((s) => s.sessionId))).toEqual(new Set(present.map((s) => s.sessionId)));
        expect(kept.length).toBe(new Set(kept.map((s) => s.sessionId)).size);
        for (const copy of kept) {
          for (const other of present.filter((s) => s.sessionId === copy.sessionId)) {
            expect(other.createdAt <= copy.createdAt).toBe(true);
          }
        }
        expect(latestCopies([...sessions].reverse())).toEqual(kept);
      }),
    );
  });

  it("reads a Codex session's transcript as the rollout it is, and a Claude Code session's as Claude Code's", () => {
    const from = pinnedSource({ path: '3b/1c0e2d9f4a/0/full.jsonl', licence: 'MIT', agent: 'Codex CLI' });
    const session = (agent: string): CheckpointSession => ({
      dir: '3b/1c0e2d9f4a/0',
      sessionId: '019ed893-aaaa',
      agent,
      createdAt: '2026-06-02T09:00:00Z',
      transcriptSize: 1,
    });
    const rollout = [
      {
        timestamp: '2026-06-02T08:59:00.000Z',
        type: 'session_meta',
        payload: { id: '019ed893-aaaa', cwd: '/work/app' },
      },
      {
        timestamp: '2026-06-02T08:59:01.000Z',
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: 'git status --short', workdir: '/work/app' }),
          call_id: 'call_7',
        },
      },
      {
        timestamp: '2026-06-02T08:59:02.000Z',
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: 'call_7',
          output: 'Process exited with code 0\nOutput:\n M src/app.ts\n',
        },
      },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const claude = [
      {
        type: 'assistant',
        uuid: 'a1',
        sessionId: 's',
        timestamp: '2026-06-02T08:59:01.000Z',
        message: {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'git status --short' } },
          ],
        },
      },
      {
        type: 'user',
        uuid: 'u1',
        sessionId: 's',
        timestamp: '2026-06-02T08:59:02.000Z',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: ' M src/app.ts' }],
        },
      },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');

    const codexRun = convertCheckpointSession(session('Codex'), rollout, from, 'agentv-019ed893');
    expect(callsOf(codexRun.events).map((call) => [call.tool, call.args.command])).toEqual([
      ['shell', 'git status --short'],
    ]);
    expect(callsOf(convertCheckpointSession(session('Claude Code'), rollout, from, 'x').events)).toEqual([]);
    const claudeRun = convertCheckpointSession(session('Claude Code'), claude, from, 'napoli-s');
    expect(callsOf(claudeRun.events).map((call) => call.tool)).toEqual(['Bash']);
  });
});
