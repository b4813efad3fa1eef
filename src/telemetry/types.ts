/**
 * The few shapes of the OpenTelemetry API that narrowing uses, written out so that its own types
 * never require `@opentelemetry/api` to be installed (it is an optional peer).
 */

export type OtelAttributeValue = string | number | boolean | string[];
export type OtelAttributes = Record<string, OtelAttributeValue>;

/** `SpanKind.INTERNAL` of the API: the check runs in the process that asks for it. */
export const SPAN_KIND_INTERNAL = 0;

/** `SpanStatusCode.ERROR` of the API. */
export const SPAN_STATUS_ERROR = 2;

export interface OtelSpan {
  setAttribute(key: string, value: OtelAttributeValue): unknown;
  addEvent(name: string, attributes?: OtelAttributes, time?: number): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(endTime?: number): void;
}

/** A context of the API (opaque here): which span is current, what came with a request. */
export type OtelContext = unknown;

/** How a propagator reads a carrier (for MCP, a request's `params._meta`). */
export interface OtelCarrierGetter {
  keys(carrier: unknown): string[];
  get(carrier: unknown, key: string): string | undefined;
}

export interface OtelTracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: OtelAttributes; startTime?: number },
    context?: OtelContext,
  ): OtelSpan;
}

export interface OtelTracerProvider {
  getTracer(name: string, version?: string): OtelTracer;
  /** The SDK's provider has it; the API's proxy hands it over through `getDelegate`. */
  forceFlush?(): Promise<void>;
  getDelegate?(): OtelTracerProvider;
}
