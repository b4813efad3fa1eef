/** OpenTelemetry for narrowing: verdict spans for every face, tool spans where narrowing runs the tool. */

import { loadOpenTelemetry, type OtelApi } from './load.js';
import type { GuardObserver } from './observer.js';
import type { OtelTracer, OtelTracerProvider } from './types.js';
import { TRACER_NAME, verdictTelemetry } from './verdict-spans.js';

export { loadOpenTelemetry, type OtelApi } from './load.js';
export {
  startToolSpan,
  type ToolCallTracer,
  type ToolSpan,
  type ToolSpanEnd,
  type ToolSpanInput,
  type TracedEnd,
} from './tool-spans.js';
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
export type OtelOption =
  | boolean
  | { readonly tracer: OtelTracer; readonly flush?: () => Promise<void>; readonly api?: OtelApi };

/** The tracer narrowing uses: from the tracer provider an OpenTelemetry SDK registered globally. */
export function globalTracer(api: OtelApi = loadOpenTelemetry()): {
  readonly tracer: OtelTracer;
  readonly flush: () => Promise<void>;
  readonly api: OtelApi;
} {
  const provider = api.trace.getTracerProvider();
  return { tracer: api.trace.getTracer(TRACER_NAME), flush: () => forceFlush(provider), api };
}

/** The observer for `otel`, or undefined when telemetry is off. Throws `DEPENDENCY_MISSING` without the API. */
export function telemetryObserver(
  otel: OtelOption | undefined,
  policyId?: string,
): GuardObserver | undefined {
  if (otel === undefined || otel === false) return undefined;
  const source = otel === true ? globalTracer() : otel;
  const api = source.api ?? installedApi();
  return verdictTelemetry({
    tracer: source.tracer,
    ...(source.flush && { flush: source.flush }),
    ...(policyId !== undefined && { policyId }),
    ...(api && { api }),
  });
}

/** A tracer of one's own comes from an SDK, which has the API beside it; without it, spans go unrelated. */
function installedApi(): OtelApi | undefined {
  try {
    return loadOpenTelemetry();
  } catch {
    return undefined;
  }
}

/**
 * How long a flush may hold the process that asked for it. A Collector on the same machine takes a
 * few milliseconds; one that is down or unreachable makes an OTLP exporter retry for its whole
 * timeout (10 s by default), which would make a hook miss its deadline and the agent's call go
 * unchecked. Past this, the spans are left to the exporter and the guard goes on.
 */
export const FLUSH_LIMIT_MS = 2000;

/** A short-lived process (a hook) must hand its spans over before it exits, within `limitMs`. */
export async function forceFlush(provider: OtelTracerProvider, limitMs = FLUSH_LIMIT_MS): Promise<void> {
  const actual = provider.getDelegate?.() ?? provider;
  const flushed = actual.forceFlush?.();
  if (flushed === undefined) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limitMs);
  });
  try {
    // An exporter's failure is the SDK's to report; a guard never fails for want of a backend.
    await Promise.race([flushed.catch(() => undefined), limit]);
  } finally {
    clearTimeout(timer);
  }
}
