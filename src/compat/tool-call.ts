/**
 * `createToolCallAdapter`, `toolCallToProposal` and `toolCallToOutcome` with the shapes of
 * `@sovereign-labs/narrowing/adapters/tool-call`, over this package's tool-call adapter.
 */

import { isRecord } from '../adapters/tool-call/action-classes.js';
import { matcherFor } from '../adapters/tool-call/adapter.js';
import {
  createToolCallAdapter as createEngineToolCallAdapter,
  toolCallToOutcome as engineToolCallToOutcome,
  toolCallToProposal as engineToolCallToProposal,
  type ToolCallAdapterOptions,
} from '../adapters/tool-call/index.js';
import { TEXT_RULES } from '../adapters/tool-call/signatures.js';
import { normalizeTarget } from '../adapters/tool-call/targets.js';
import { identifyCall } from '../core/identity/index.js';
import { bind, honouringActionClass } from './binding.js';
import { argumentsOf, type PaperView, rememberView, toolNamed } from './proposals.js';
import type { DomainAdapter, RawOutcome } from './types.js';

const UNNAMED_TOOL = 'unknown_tool';
/** The engine's class for a call that acts on nothing it can name. */
const OTHER = 'other';
/** The engine adapter's matcher of the built-in rules, built on the first error any of them reads. */
function signatureOf(error: unknown) {
  return matcherFor([]).match(String(error));
}
const SIGNATURE_PATTERNS = TEXT_RULES.map((rule) => ({
  pattern: rule.pattern,
  signature: rule.signature,
  typicallyHarness: rule.blame === 'harness_fault',
  description: `${rule.signature}: ${rule.blame.replace('_', ' ')}${rule.deterministic ? ', deterministic' : ''}`,
}));

function engineProposal(view: PaperView) {
  const tool = toolNamed(view.parameters) ?? UNNAMED_TOOL;
  return rememberView(engineToolCallToProposal(tool, argumentsOf(view.parameters)), view);
}

/** The argument names that package reads a target from, in the order it reads them. */
const PAPER_TARGET_KEYS = ['file', 'file_path', 'path', 'target', 'url', 'endpoint'] as const;
const FINGERPRINT_TARGET_KEYS = ['target', 'file', 'path', 'file_path', 'url', 'endpoint'] as const;
const FINGERPRINT_PATTERN_KEYS = ['pattern', 'old_string', 'search', 'command', 'query'] as const;
const FINGERPRINT_PATTERN_LENGTH = 80;
const CONTENT_KEYS = ['content', 'contents'] as const;
const FILE_KEYS = ['file', 'file_path', 'path'] as const;
const EDIT_KEYS = ['old_string', 'search', 'patch'] as const;

function firstString(args: Readonly<Record<string, unknown>>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function hasAny(args: Readonly<Record<string, unknown>>, keys: readonly string[]): boolean {
  return keys.some((key) => args[key] !== undefined && args[key] !== null && args[key] !== '');
}

/**
 * The targets of a call as the caller spelled them: the one that package reads (`file`, `path`,
 * `url`, `endpoint`, …), then the others this engine finds, each in the spelling of the argument it
 * came from (`https://a.com`, not the canonical `https://a.com/`).
 */
function callerTargets(args: Readonly<Record<string, unknown>>, engineTargets: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (spelled: string) => {
    const canonical = normalizeTarget(spelled);
    if (seen.has(canonical)) return;
    seen.add(canonical);
    out.push(spelled);
  };
  const named = firstString(args, PAPER_TARGET_KEYS);
  if (named !== undefined) add(named);
  for (const target of engineTargets) {
    let spelled = target;
    for (const value of Object.values(args)) {
      if (typeof value === 'string' && value !== target && normalizeTarget(value) === target) {
        spelled = value;
        break;
      }
    }
    add(spelled);
  }
  return out;
}

/**
 * The identity that package's `extractParameters` gives a call: the tool (`t:`), its target (`@`),
 * the first 80 characters of what it searches or runs (`p:`) and its method (`m:`), joined by `|`.
 */
function paperFingerprint(raw: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const tool = toolNamed(raw);
  if (tool !== undefined) parts.push(`t:${tool}`);
  const target = firstString(raw, FINGERPRINT_TARGET_KEYS);
  if (target !== undefined) parts.push(`@${target}`);
  const pattern = firstString(raw, FINGERPRINT_PATTERN_KEYS);
  if (pattern !== undefined) parts.push(`p:${pattern.slice(0, FINGERPRINT_PATTERN_LENGTH)}`);
  if (typeof raw.method === 'string' && raw.method !== '') parts.push(`m:${raw.method}`);
  return parts.length > 0 ? parts.join('|') : 'unknown';
}

/**
 * Where that package reads the class from the arguments and this engine reads another: content
 * for a file, under a tool whose name says nothing, creates the file there (this engine would call
 * it a whole-file write, `file_edit`).
 */
function classByShape(
  parameters: Readonly<Record<string, unknown>>,
  nameSaysNothing: boolean,
): string | undefined {
  if (!nameSaysNothing || hasAny(parameters, EDIT_KEYS)) return undefined;
  return hasAny(parameters, CONTENT_KEYS) && hasAny(parameters, FILE_KEYS) ? 'file_create' : undefined;
}

/** The tool-call adapter, answering that package's five questions and running on this engine's. */
export function createToolCallAdapter(options: ToolCallAdapterOptions = {}): DomainAdapter {
  const engine = createEngineToolCallAdapter(options);
  const describe = (parameters: Readonly<Record<string, unknown>>, targets: readonly string[] = []) =>
    engine.describeCall(engineProposal({ parameters, targets }));
  const nameSaysNothing = (parameters: Readonly<Record<string, unknown>>) => {
    const tool = toolNamed(parameters);
    return tool === undefined || engine.describeCall({ tool, args: {} }).actionClass === OTHER;
  };
  const shapeClass = (view: PaperView) => classByShape(view.parameters, nameSaysNothing(view.parameters));
  const adapter: DomainAdapter = {
    name: 'tool-call',
    extractSignature: (error) => signatureOf(error)?.signature,
    classifyBlame: (error) => signatureOf(error)?.blame ?? 'unknown',
    classifyAction(params, targets) {
      const actionClass =
        shapeClass({ parameters: params, targets }) ?? describe(params, targets).actionClass;
      // That package answers "no idea" where this engine says `other`.
      return actionClass === OTHER ? undefined : actionClass;
    },
    extractParameters(raw) {
      const tool = toolNamed(raw) ?? UNNAMED_TOOL;
      const extracted: Record<string, unknown> = {
        tool,
        _fingerprint: paperFingerprint(raw),
        _callKey: identifyCall(tool, argumentsOf(raw)).callKey,
      };
      const target =
        firstString(raw, FINGERPRINT_TARGET_KEYS) ?? callerTargets(raw, describe(raw).targets)[0];
      if (target !== undefined) extracted.target = target;
      if (raw.actionClass !== undefined) extracted.actionClass = raw.actionClass;
      for (const key of Object.keys(raw))
        if (key === '_delta' || key.startsWith('_prev_')) extracted[key] = raw[key];
      return extracted;
    },
    signaturePatterns: SIGNATURE_PATTERNS.map((pattern) => ({ ...pattern })),
  };
  return bind(adapter, { adapter: honouringActionClass(engine, shapeClass), toProposal: engineProposal });
}

/** A proposal in that package's shape: the tool's name among the parameters, and its targets. */
export function toolCallToProposal(
  toolName: string,
  args: Record<string, unknown>,
): { parameters: Record<string, unknown>; targets: string[] } {
  const proposal = engineToolCallToProposal(toolName, args);
  const targets = sharedEngine().describeCall(proposal).targets;
  return { parameters: { tool: toolName, ...proposal.args }, targets: callerTargets(proposal.args, targets) };
}

let defaultEngine: ReturnType<typeof createEngineToolCallAdapter> | undefined;
function sharedEngine() {
  defaultEngine ??= createEngineToolCallAdapter();
  return defaultEngine;
}

/** The result of a tool call as that package takes it. */
export interface ToolCallResult {
  success: boolean;
  error?: string;
  durationMs: number;
  metadata?: Record<string, unknown>;
}

/**
 * An outcome in that package's shape. `result` is `{ success, error?, durationMs }` as there, or
 * anything this package's `toolCallToOutcome` reads (an MCP result, a string, an `Error`): then the
 * text of a successful result is kept too, so that empty answers are recognised.
 */
export function toolCallToOutcome(
  toolName: string,
  args: Record<string, unknown>,
  result: ToolCallResult | unknown,
): RawOutcome & { score: null; status: 'success' | 'failure' } {
  const { parameters, targets } = toolCallToProposal(toolName, args);
  if (isRecord(result) && typeof result.success === 'boolean') {
    const outcome: RawOutcome & { score: null; status: 'success' | 'failure' } = {
      score: null,
      status: result.success ? 'success' : 'failure',
      parameters,
      targets,
      durationMs: typeof result.durationMs === 'number' ? result.durationMs : 0,
    };
    if (typeof result.error === 'string') outcome.error = result.error;
    if (isRecord(result.metadata)) outcome.metadata = { ...result.metadata };
    return outcome;
  }
  const engine = engineToolCallToOutcome(toolName, args, result);
  const outcome: RawOutcome & { score: null; status: 'success' | 'failure' } = {
    score: null,
    status: engine.success ? 'success' : 'failure',
    parameters,
    targets,
    durationMs: engine.durationMs ?? 0,
  };
  const error = engine.error ?? (engine.success ? undefined : engine.content);
  if (error !== undefined) outcome.error = error;
  if (engine.content !== undefined) outcome.content = engine.content;
  return outcome;
}
