/**
 * The calls of a recording that were answered, each read as the adapter reads a call and its
 * outcome, numbered as a replay numbers its steps (every `call` event counts, answered or not).
 */
import type { CallFacts, DomainAdapter, FailureFacts, Outcome, Proposal } from '../core/types.js';
import { traceResultToOutcome } from '../trace/outcome.js';
import type { TraceEvent } from '../trace/types.js';

export interface RecordedCall {
  readonly step: number;
  readonly proposal: Proposal;
  readonly facts: CallFacts;
  readonly outcome: Outcome;
  /** Undefined when the adapter reads no failure in the outcome. */
  readonly failure: FailureFacts | undefined;
  /** What the call answered: its content, or its error. */
  readonly text: string;
}

type ToolAnnotations = NonNullable<Proposal['annotations']>;

export function* recordedCalls(
  events: Iterable<TraceEvent>,
  adapter: DomainAdapter,
): Generator<RecordedCall> {
  const annotations = new Map<string, ToolAnnotations>();
  let step = 0;
  for (const event of events) {
    if (event.type === 'meta')
      for (const tool of event.tools ?? [])
        if (tool.annotations) annotations.set(tool.name, tool.annotations);
    if (event.type !== 'call') continue;
    step++;
    if (!event.result) continue;
    const declared = annotations.get(event.tool);
    const proposal = { tool: event.tool, args: event.args, ...(declared && { annotations: declared }) };
    const facts = adapter.describeCall(proposal);
    const outcome = traceResultToOutcome(proposal, event.result);
    const failure = adapter.describeFailure(outcome, facts);
    yield { step, proposal, facts, outcome, failure, text: outcome.content ?? outcome.error ?? '' };
  }
}
