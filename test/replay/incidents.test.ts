import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hostToolAnnotations, isHostAgent } from '../../src/adapters/tool-call/host-tools.js';
import { parseExpectation, unmetExpectations } from '../../src/replay/expectations.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseTrace, type TraceEvent } from '../../src/trace/index.js';

/**
 * Traces in the shape of publicly reported agent loops (docs/corpus.md, "Incident-shaped traces"),
 * each written with one agent's own tools and their real error texts. A trace's first line says
 * which agent (`agent`), which shape of wasted calls it shows (`shape`, numbered as docs/corpus.md lists them), where the report is
 * (`source`) and what a good guard does (`expect`); `open` marks a loop the guard still misses, and why.
 */
const dir = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'fixtures', 'incidents');
const AGENTS = [
  'claude-code',
  'gemini-cli',
  'codex',
  'cursor',
  'cline',
  'roo-code',
  'kilo-code',
  'opencode',
  'goose',
  'copilot',
  'mcp',
  'openhands',
  'swe-agent',
  'tool-agent',
];

interface Incident {
  readonly file: string;
  readonly agent: string;
  readonly shape: number;
  readonly source: string;
  readonly open?: string;
  readonly events: TraceEvent[];
}

function incident(file: string): Incident {
  const text = readFileSync(join(dir, file), 'utf8');
  const head = JSON.parse(text.slice(0, text.indexOf('\n'))) as Omit<Incident, 'file' | 'events'>;
  const events = parseTrace(text, file);
  const meta = events[0];
  // A built-in tool of a coding agent is read as its hook reads it: with the host's annotations.
  if (meta?.type === 'meta' && isHostAgent(head.agent)) {
    const agent = head.agent;
    const used = new Set(events.flatMap((event) => (event.type === 'call' ? [event.tool] : [])));
    const tools = [...used].flatMap((name) => {
      const annotations = hostToolAnnotations(agent, name);
      return annotations ? [{ name, annotations }] : [];
    });
    events[0] = { ...meta, tools: [...(meta.tools ?? []), ...tools] };
  }
  return { ...head, file, events };
}

function unmet(trace: Incident): string[] {
  const meta = trace.events[0];
  if (meta?.type !== 'meta' || meta.expect === undefined) throw new Error(`${trace.file} has no meta.expect`);
  return unmetExpectations(parseExpectation(meta.expect), replayTrace(trace.events).steps);
}

const incidents = readdirSync(dir)
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .map(incident);

describe('incident-shaped traces', () => {
  it('cover every agent kind with loops and with legitimate runs close to them', () => {
    for (const agent of AGENTS) {
      const own = incidents.filter((trace) => trace.agent === agent);
      expect(
        own.some((trace) => trace.file.startsWith('loop-')),
        `${agent} loops`,
      ).toBe(true);
    }
    // At least a third of the traces are legitimate runs close to a loop.
    const legit = incidents.filter((trace) => trace.file.startsWith('legit-')).length;
    expect(legit * 3).toBeGreaterThanOrEqual(incidents.length);
  });

  it('cover every shape of wasted calls and at least 40 public reports', () => {
    expect(new Set(incidents.map((trace) => trace.shape))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(new Set(incidents.map((trace) => trace.source)).size).toBeGreaterThanOrEqual(40);
  });

  it.each(incidents.filter((trace) => trace.open === undefined).map((trace) => [trace.file, trace] as const))(
    '%s meets its expectation',
    (_, trace) => {
      expect(unmet(trace)).toEqual([]);
    },
  );

  // A loop still missed stays here with its cause; when a change catches it, drop its `open`.
  it.each(incidents.filter((trace) => trace.open !== undefined).map((trace) => [trace.file, trace] as const))(
    '%s is still missed for the reason its trace gives',
    (_, trace) => {
      expect(unmet(trace)).not.toEqual([]);
    },
  );
});
