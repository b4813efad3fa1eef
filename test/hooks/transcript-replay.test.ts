import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayTrace } from '../../src/replay/index.js';
import { claudeTranscriptToTrace } from '../../src/trace/convert/index.js';
import { buildHook, type HookRun, runHookProcess, tempProject } from './support.js';

const fixture = join(import.meta.dirname, '../fixtures/claude/checkout-fix-session.jsonl');
let hook: Awaited<ReturnType<typeof buildHook>>;
const project = tempProject();
beforeAll(async () => {
  hook = await buildHook();
});
afterAll(async () => {
  await project.remove();
  hook.remove();
});

// biome-ignore lint/suspicious/noExplicitAny: transcript lines are free-form JSON, read by their shape
type Entry = Record<string, any>;

/** A tool call of the transcript as Claude Code's hooks report it: before, and after unless denied. */
interface HookedCall {
  readonly pre: Entry;
  readonly post: Entry;
}

/** The hook events Claude Code fired for the session the transcript records. */
function transcriptToHookEvents(lines: readonly Entry[], cwd: string): (Entry | HookedCall)[] {
  const results = new Map<string, Entry>();
  for (const line of lines) {
    const content = line.message?.content;
    if (line.type !== 'user' || !Array.isArray(content)) continue;
    for (const block of content) if (block.type === 'tool_result') results.set(block.tool_use_id, block);
  }
  const events: (Entry | HookedCall)[] = [];
  const base = (line: Entry) => ({
    session_id: line.sessionId,
    transcript_path: join(cwd, `${line.sessionId}.jsonl`),
    cwd,
    permission_mode: 'default',
  });
  events.push({ ...base(lines[0] as Entry), hook_event_name: 'SessionStart', source: 'startup' });
  for (const line of lines) {
    if (line.type === 'system' && line.subtype === 'compact_boundary') {
      events.push({ ...base(line), hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' });
    } else if (line.type === 'user' && typeof line.message?.content === 'string' && !line.isCompactSummary) {
      events.push({ ...base(line), hook_event_name: 'UserPromptSubmit', prompt: line.message.content });
    } else if (line.type === 'assistant') {
      for (const block of line.message.content) {
        if (block.type !== 'tool_use') continue;
        const call = { ...base(line), tool_name: block.name, tool_input: block.input, tool_use_id: block.id };
        const result = results.get(block.id) as Entry;
        const post = result.is_error
          ? { ...call, hook_event_name: 'PostToolUseFailure', error: result.content }
          : { ...call, hook_event_name: 'PostToolUse', tool_response: result.content };
        events.push({ pre: { ...call, hook_event_name: 'PreToolUse' }, post });
      }
    }
  }
  return events;
}

function verdictOf(run: HookRun): string {
  const output = run.json?.hookSpecificOutput as Entry | undefined;
  if (output?.permissionDecision === 'deny') return 'block';
  return output?.additionalContext ? 'warn' : 'allow';
}

describe('a recorded Claude Code session run through the hook, one process per event', () => {
  it('gets the verdicts replay gives on the converted trace', async () => {
    const text = readFileSync(fixture, 'utf8');
    const replayed = replayTrace(claudeTranscriptToTrace(text.split('\n')).events);
    const expected = replayed.steps.map((step) => (step.verdict === 'halt' ? 'block' : step.verdict));
    expect(expected).toContain('block');
    expect(expected).toContain('warn');

    const lines = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Entry);
    const verdicts: string[] = [];
    for (const event of transcriptToHookEvents(lines, project.dir)) {
      if (!('pre' in event)) {
        expect((await runHookProcess(hook.path, ['claude-code'], event)).code).toBe(0);
        continue;
      }
      const verdict = verdictOf(await runHookProcess(hook.path, ['claude-code'], event.pre));
      verdicts.push(verdict);
      // A denied call never runs, so Claude Code reports no outcome for it.
      if (verdict !== 'block') await runHookProcess(hook.path, ['claude-code'], event.post);
    }
    expect(verdicts).toEqual(expected);
  });
});
