/**
 * One event of an agent's hook, whatever the agent: the normalised form each protocol parses its
 * payload into, and the answer the guard gives, which each protocol words in its own fields.
 */
import type { HostAgent } from '../adapters/tool-call/host-tools.js';
import type { VerdictMeta } from '../guard/verdict.js';

/** A tool call as a hook sees it. */
export interface HookToolCall {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly id?: string;
}

/**
 * What a finished call returned, in the shape `toolCallToOutcome` reads. `exitCode`: a command's
 * exit status, where the agent (or its session log) says it.
 */
export type HookToolResult =
  | { readonly ok: true; readonly content: string; readonly exitCode?: number }
  | {
      readonly ok: false;
      readonly error: string;
      readonly content?: string;
      readonly exitCode?: number;
      /** The agent stopped the call for running too long: a timeout, which never narrows the agent. */
      readonly timedOut?: boolean;
    };

export type HookAction =
  /** Before a call: allow, warn or deny it. */
  | { readonly type: 'before-call'; readonly call: HookToolCall }
  /** After a call: learn from what it returned. */
  | { readonly type: 'after-call'; readonly call: HookToolCall; readonly result: HookToolResult }
  /** A new user prompt: a new run. */
  | { readonly type: 'prompt' }
  /** The agent's context was (or is about to be) compacted. */
  | { readonly type: 'compact' }
  /** A session starts: new (`startup`, `clear`) or continued (`resume`). */
  | { readonly type: 'session-start'; readonly source: 'startup' | 'resume' | 'clear' }
  /** The agent finished its turn. */
  | { readonly type: 'stop' }
  /** An event narrowing has nothing to do with; answered with nothing. */
  | { readonly type: 'ignored' };

export interface HookEvent {
  readonly agent: HostAgent;
  /** The event's name in the agent's protocol (`PreToolUse`, `BeforeTool`, `preToolUse`…). */
  readonly name: string;
  /** The agent's session (or conversation) id; state across processes is keyed by it. */
  readonly sessionId: string;
  /** The folder the agent works in, from the payload; the project's state is found from it. */
  readonly workspace: string | undefined;
  /**
   * The agent's session log (`transcript_path`), where it keeps one: Codex's rollout file holds
   * exit statuses its hook payloads leave out (see `codex-rollout.ts`).
   */
  readonly transcriptPath?: string;
  readonly action: HookAction;
}

/** What the guard says about an event, for the protocol to word. */
export type HookVerdict =
  /** Nothing to say: the call proceeds as the agent would run it anyway. */
  | { readonly type: 'none' }
  /** The call runs, and the model reads `text` beside it. */
  | { readonly type: 'warn'; readonly text: string; readonly meta?: VerdictMeta }
  /** The call does not run; the model reads `text` as the reason. */
  | { readonly type: 'deny'; readonly text: string; readonly meta?: VerdictMeta };

/** What the hook process prints and how it exits. */
export interface HookReply {
  readonly stdout: string;
  readonly stderr?: string;
  readonly exitCode: number;
}

/** One agent's hook protocol: its payloads in, its answers out. */
export interface HookProtocol {
  readonly agent: HostAgent;
  /** Reads a payload; throws a `NarrowingError` (`USAGE`) when it is not one of this agent's. */
  parse(payload: unknown): HookEvent;
  /** Words a verdict in this agent's fields. */
  reply(event: HookEvent, verdict: HookVerdict): HookReply;
}
