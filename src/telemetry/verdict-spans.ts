/**
 * Verdicts as OpenTelemetry spans, after the GenAI semantic conventions (development status, in
 * open-telemetry/semantic-conventions-genai; see docs/visibility.md for the revision followed):
 * - each check before a call is an `apply_guardrail narrowing` span (source `tool_input`), each
 *   record after it one with source `tool_output`;
 * - each carries a `gen_ai.guardrail.result` event with the verdict (or the outcome), the rule, the
 *   blame, the error signature and the ids of the constraints involved.
 * Nothing a tool or a model wrote goes into a span: tool names, rule names, ids and fixed words only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { OtelApi } from './load.js';
import type { CheckedCall, GuardObserver, RecordedCall } from './observer.js';
import { type ToolScope, toolCallTracer } from './tool-spans.js';
import type { OtelAttributes, OtelContext, OtelTracer } from './types.js';
import { SPAN_KIND_INTERNAL } from './types.js';

/** The name the guard gives itself in spans (`gen_ai.guardrail.component.name`, `gen_ai.provider.name`). */
export const GUARDRAIL_COMPONENT = 'narrowing';
export const GUARDRAIL_SPAN_NAME = `apply_guardrail ${GUARDRAIL_COMPONENT}`;
export const GUARDRAIL_RESULT_EVENT = 'gen_ai.guardrail.result';
/** The instrumentation scope of narrowing's spans. */
export const TRACER_NAME = 'narrowing-guard';

/** Attribute keys, the conventions' own and narrowing's (under `narrowing.`). */
export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  component: 'gen_ai.guardrail.component.name',
  source: 'gen_ai.guardrail.source',
  resultType: 'gen_ai.guardrail.result.type',
  resultValue: 'gen_ai.guardrail.result.value',
  resultReason: 'gen_ai.guardrail.result.reason',
  policyId: 'gen_ai.guardrail.policy.id',
  ruleId: 'gen_ai.guardrail.policy.rule.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  conversationId: 'gen_ai.conversation.id',
  errorType: 'error.type',
  verdict: 'narrowing.verdict',
  rule: 'narrowing.rule',
  blame: 'narrowing.blame',
  signature: 'narrowing.signature',
  constraintIds: 'narrowing.constraint.ids',
  learnedIds: 'narrowing.constraint.learned_ids',
  liftedIds: 'narrowing.constraint.lifted_ids',
  softened: 'narrowing.softened',
} as const;

/** Longest tool name or id put in a span: names come from tools, which a server controls. */
const MAX_NAME = 256;
const MAX_IDS = 32;

export interface VerdictTelemetryOptions {
  readonly tracer: OtelTracer;
  /** The policy's preset, as `gen_ai.guardrail.policy.id`. */
  readonly policyId?: string;
  /** Hands pending spans to the exporter (the SDK provider's `forceFlush`). */
  readonly flush?: () => Promise<void>;
  /**
   * The API, for its context functions: with it, the guardrail spans of a call the face runs
   * itself are children of the call's `execute_tool` span. Without it, spans are unrelated.
   */
  readonly api?: OtelApi;
}

/** An observer that turns each check and record of a guard into a guardrail span. */
export function verdictTelemetry(options: VerdictTelemetryOptions): GuardObserver {
  const { tracer } = options;
  /** The tool call each check or record belongs to, when a face runs it inside `toolCalls.trace`. */
  const scopes = new AsyncLocalStorage<ToolScope>();
  return {
    checked(call) {
      const scope = scopes.getStore();
      if (scope) {
        scope.verdict = call.result.verdict;
        scope.span.setAttribute(ATTR.verdict, call.result.verdict);
        if (call.result.rule !== undefined) scope.span.setAttribute(ATTR.rule, bounded(call.result.rule));
      }
      emit(tracer, call.startedAt, call.endedAt, checkAttributes(call, options.policyId), scope?.context);
    },
    recorded(call) {
      const scope = scopes.getStore();
      if (scope) {
        scope.failed = !call.result.outcome.success;
        scope.span.setAttribute(ATTR.blame, call.result.outcome.blame);
      }
      emit(tracer, call.startedAt, call.endedAt, recordAttributes(call, options.policyId), scope?.context);
    },
    toolCalls: toolCallTracer(tracer, options.api, scopes),
    ...(options.flush && { flush: options.flush }),
  };
}

function emit(
  tracer: OtelTracer,
  startedAt: number,
  endedAt: number,
  attributes: OtelAttributes,
  parent: OtelContext | undefined,
): void {
  const span = tracer.startSpan(
    GUARDRAIL_SPAN_NAME,
    {
      kind: SPAN_KIND_INTERNAL,
      startTime: startedAt,
      attributes: {
        [ATTR.operation]: 'apply_guardrail',
        [ATTR.provider]: GUARDRAIL_COMPONENT,
        [ATTR.component]: GUARDRAIL_COMPONENT,
        ...attributes,
      },
    },
    parent,
  );
  span.addEvent(GUARDRAIL_RESULT_EVENT, resultEventAttributes(attributes), endedAt);
  span.end(endedAt);
}

/** The event repeats the result fields, so that a backend showing events alone sees the verdict. */
function resultEventAttributes(attributes: OtelAttributes): OtelAttributes {
  const event: OtelAttributes = {};
  for (const key of [
    ATTR.component,
    ATTR.source,
    ATTR.resultType,
    ATTR.resultValue,
    ATTR.resultReason,
    ATTR.policyId,
    ATTR.ruleId,
    ATTR.verdict,
    ATTR.rule,
    ATTR.blame,
    ATTR.signature,
    ATTR.constraintIds,
    ATTR.learnedIds,
    ATTR.liftedIds,
  ]) {
    const value = attributes[key];
    if (value !== undefined) event[key] = value;
  }
  if (event[ATTR.component] === undefined) event[ATTR.component] = GUARDRAIL_COMPONENT;
  return event;
}

function checkAttributes(call: CheckedCall, policyId: string | undefined): OtelAttributes {
  const { result, proposal } = call;
  const decisive = result.violations[0];
  const constraintIds = unique(result.violations.map((violation) => violation.constraint?.id));
  const attributes: OtelAttributes = {
    ...callAttributes(proposal.tool, proposal.callId, call.sessionId, policyId),
    [ATTR.source]: 'tool_input',
    [ATTR.resultType]: 'verdict',
    [ATTR.resultValue]: result.verdict,
    [ATTR.verdict]: result.verdict,
  };
  if (result.rule !== undefined) {
    attributes[ATTR.rule] = bounded(result.rule);
    attributes[ATTR.ruleId] = bounded(result.rule);
    attributes[ATTR.resultReason] = `narrowing rule ${bounded(result.rule)}`;
  }
  if (result.softened) attributes[ATTR.softened] = true;
  if (constraintIds.length > 0) {
    attributes[ATTR.constraintIds] = constraintIds;
    // Only failures the agent caused narrow it: a verdict resting on a learned constraint has that blame.
    attributes[ATTR.blame] = 'agent_failure';
  }
  const signature = decisive?.constraint?.signature;
  if (signature !== undefined) attributes[ATTR.signature] = bounded(signature);
  return attributes;
}

function recordAttributes(call: RecordedCall, policyId: string | undefined): OtelAttributes {
  const { outcome } = call.result;
  const attributes: OtelAttributes = {
    ...callAttributes(outcome.tool, call.outcome.proposal.callId, call.sessionId, policyId),
    [ATTR.source]: 'tool_output',
    [ATTR.resultType]: 'outcome',
    [ATTR.resultValue]: outcome.success ? 'success' : 'failure',
    [ATTR.blame]: outcome.blame,
  };
  if (outcome.signature !== undefined) attributes[ATTR.signature] = bounded(outcome.signature);
  const learned = unique(call.result.newConstraints.map((constraint) => constraint.id));
  const lifted = unique(call.result.liftedConstraints.map((constraint) => constraint.id));
  if (learned.length > 0) attributes[ATTR.learnedIds] = learned;
  if (lifted.length > 0) attributes[ATTR.liftedIds] = lifted;
  if (learned.length + lifted.length > 0) attributes[ATTR.constraintIds] = unique([...learned, ...lifted]);
  return attributes;
}

function callAttributes(
  tool: string,
  callId: string | undefined,
  sessionId: string,
  policyId: string | undefined,
): OtelAttributes {
  return {
    [ATTR.toolName]: bounded(tool),
    [ATTR.conversationId]: bounded(sessionId),
    ...(callId !== undefined && { [ATTR.toolCallId]: bounded(callId) }),
    ...(policyId !== undefined && { [ATTR.policyId]: policyId }),
  };
}

function unique(ids: readonly (string | undefined)[]): string[] {
  const seen: string[] = [];
  for (const id of ids) if (id !== undefined && !seen.includes(id) && seen.length < MAX_IDS) seen.push(id);
  return seen;
}

function bounded(text: string): string {
  return text.length > MAX_NAME ? `${text.slice(0, MAX_NAME)}…` : text;
}
