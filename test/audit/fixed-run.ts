/**
 * A fixed run for the journal's bytes: echo-like calls that succeed, a failing read the engine
 * learns from, arguments with text beyond ASCII and a secret. Written in three batches (`batches`),
 * its lines and head must stay byte for byte what the committed fixture holds.
 */
import type { JournalEvent } from '../../src/core/types.js';
import { readMissingFile } from './sample-events.js';

const T0 = 1_771_405_300_000;

function echoCall(index: number): JournalEvent[] {
  const at = T0 + index * 1_500;
  const callKey = `echo#${(0x4c1e_0000 + index * 7_919).toString(16)}`;
  const message = index % 3 === 0 ? `café n° ${index} — ✓ 日本語` : `hello ${index}`;
  return [
    { type: 'proposal', at, tool: 'echo', callKey, args: { message, repeat: index % 2 }, verdict: 'allow' },
    {
      type: 'outcome',
      at: at + 1,
      tool: 'echo',
      callKey,
      success: true,
      blame: 'none',
      resultDigest: (0x9a00_0000 + index).toString(16),
    },
  ];
}

function secretCall(): JournalEvent[] {
  const at = T0 + 90_000;
  const args = {
    url: 'https://api.example.com/v1/items?page=2',
    headers: { Authorization: 'Bearer sk-live-4f9a8b7c6d5e4f3a2b1c0d9e', Accept: 'application/json' },
  };
  return [
    { type: 'proposal', at, tool: 'http_get', callKey: 'http_get#51ab', args, verdict: 'allow' },
    {
      type: 'outcome',
      at: at + 40,
      tool: 'http_get',
      callKey: 'http_get#51ab',
      success: false,
      signature: 'http_401',
      blame: 'agent_failure',
      resultDigest: '7d1f0e2a',
      error: 'HTTP 401 Unauthorized: « jeton expiré »',
    },
  ];
}

/** The run, cut where the writer is flushed. */
export function fixedRunBatches(): JournalEvent[][] {
  const echoes = Array.from({ length: 12 }, (_, index) => echoCall(index)).flat();
  return [readMissingFile(), echoes.slice(0, 9), [...echoes.slice(9), ...secretCall()]];
}
