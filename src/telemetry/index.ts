/** OpenTelemetry for narrowing: verdict spans for every face, tool spans where narrowing runs the tool. */

import { loadOpenTelemetry, type OtelApi } from './load.js';
import type { GuardObserver } from './observer.js';
import type { OtelTracer, OtelTracerProvider } from './types.js';
import { TRACER_NAME, verdictTelemetry } from './verdict-spans.js';

export { loadOpenTelemetry, type OtelApi } from './load.js';
export { startToolSpan, type ToolSpan, type ToolSpanInput } from './tool-spans.js';
export type { OtelAttributes, OtelSpan, OtelTracer, OtelTracerProvider } from './types.js';
export {
  ATTR,
  GUARDRAIL_COMPONENT,
  GUARDRAIL_RESULT_EVENT,
  GUARDRAIL_SPAN_NAME,
  TRACER_NAME,
  verdictTelemetry,
} from './verdict-spans.js';

/** How a guard is told to emit spans: `true` for the global tracer provider, or a tracer of your own. */
export type OtelOption = boolean | { readonly tracer: OtelTracer; readonly flush?: () => Promise<void> };

/** The tracer narrowing uses: from the tracer provider an OpenTelemetry SDK registered globally. */
export function globalTracer(api: OtelApi = loadOpenTelemetry()): {
  readonly tracer: OtelTracer;
  readonly flush: () => Promise<void>;
} {
  const provider = api.trace.getTracerProvider();
  return { tracer: api.trace.getTracer(TRACER_NAME), flush: () => forceFlush(provider) };
}

/** The observer for `otel`, or undefined when telemetry is off. Throws `DEPENDENCY_MISSING` without the API. */
export function telemetryObserver(
  otel: OtelOption | undefined,
  policyId?: string,
): GuardObserver | undefined {
  if (otel === undefined || otel === false) return undefined;
  const source = otel === true ? globalTracer() : otel;
  return verdictTelemetry({
    tracer: source.tracer,
    ...(source.flush && { flush: source.flush }),
    ...(policyId !== undefined && { policyId }),
  });
}

/** A short-lived process (a hook) must hand its spans over before it exits. */
async function forceFlush(provider: OtelTracerProvider): Promise<void> {
  const actual = provider.getDelegate?.() ?? provider;
  await actual.forceFlush?.();
}
