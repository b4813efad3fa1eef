/**
 * `createToolCallAdapter`, `toolCallToProposal` and `toolCallToOutcome` with the shapes of
 * `@sovereign-labs/narrowing/adapters/tool-call`, over this package's tool-call adapter.
 */

import { isRecord } from '../adapters/tool-call/action-classes.js';
import {
  createToolCallAdapter as createEngineToolCallAdapter,
  toolCallToOutcome as engineToolCallToOutcome,
  toolCallToProposal as engineToolCallToProposal,
  type ToolCallAdapterOptions,
} from '../adapters/tool-call/index.js';
import { SignatureMatcher } from '../adapters/tool-call/matcher.js';
import { TEXT_RULES } from '../adapters/tool-call/signatures.js';
import { identifyCall } from '../core/identity/index.js';
import { bind, honouringActionClass } from './binding.js';
import { argumentsOf, type PaperView, rememberView, toolNamed } from './proposals.js';
import type { DomainAdapter, RawOutcome } from './types.js';

const UNNAMED_TOOL = 'unknown_tool';
const matcher = new SignatureMatcher(TEXT_RULES);
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

/** The tool-call adapter, answering that package's five questions and running on this engine's. */
export function createToolCallAdapter(options: ToolCallAdapterOptions = {}): DomainAdapter {
  const engine = createEngineToolCallAdapter(options);
  const describe = (parameters: Record<string, unknown>, targets: string[] = []) =>
    engine.describeCall(engineProposal({ parameters, targets }));
  const adapter: DomainAdapter = {
    name: 'tool-call',
    extractSignature: (error) => matcher.match(String(error))?.signature,
    classifyBlame: (error) => matcher.match(String(error))?.blame ?? 'unknown',
    classifyAction: (params, targets) => describe(params, targets).actionClass,
    extractParameters(raw) {
      const tool = toolNamed(raw) ?? UNNAMED_TOOL;
      const facts = describe(raw);
      const extracted: Record<string, unknown> = {
        tool,
        _fingerprint: identifyCall(tool, argumentsOf(raw)).callKey,
      };
      if (facts.targets[0] !== undefined) extracted.target = facts.targets[0];
      return extracted;
    },
    signaturePatterns: SIGNATURE_PATTERNS.map((pattern) => ({ ...pattern })),
  };
  return bind(adapter, { adapter: honouringActionClass(engine), toProposal: engineProposal });
}

/** A proposal in that package's shape: the tool's name among the parameters, and its targets. */
export function toolCallToProposal(
  toolName: string,
  args: Record<string, unknown>,
): { parameters: Record<string, unknown>; targets: string[] } {
  const proposal = engineToolCallToProposal(toolName, args);
  const targets = createEngineToolCallAdapter().describeCall(proposal).targets;
  return { parameters: { tool: toolName, ...proposal.args }, targets: [...targets] };
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
