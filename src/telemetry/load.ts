/**
 * `@opentelemetry/api` is an optional peer: it is loaded only when telemetry is asked for (`--otel`,
 * the policy's `otel: true`, or `openGuard({ otel: true })`), and its absence is a `DEPENDENCY_MISSING` error that says what to install.
 */
import { NarrowingError } from '../core/errors.js';
import type { OtelCarrierGetter, OtelContext, OtelSpan, OtelTracer, OtelTracerProvider } from './types.js';

/** What narrowing uses of `@opentelemetry/api`. */
export interface OtelApi {
  readonly trace: {
    getTracer(name: string, version?: string): OtelTracer;
    getTracerProvider(): OtelTracerProvider;
    /** A context with `span` as the current span: the parent of spans started with it. */
    setSpan?(context: OtelContext, span: OtelSpan): OtelContext;
  };
  readonly context?: { active(): OtelContext };
  readonly propagation?: {
    extract(context: OtelContext, carrier: unknown, getter: OtelCarrierGetter): OtelContext;
  };
}

/**
 * Node's `require` beside this module, made only when telemetry is asked for: loading `node:module`
 * costs a process that never asks (a hook without the helper) several milliseconds.
 */
function requireHere(name: string): unknown {
  return process.getBuiltinModule('node:module').createRequire(import.meta.url)(name);
}

/** The installed `@opentelemetry/api`; `DEPENDENCY_MISSING` when it is not installed. */
export function loadOpenTelemetry(load: (name: string) => unknown = requireHere): OtelApi {
  let api: unknown;
  try {
    api = load('@opentelemetry/api');
  } catch (error) {
    throw new NarrowingError(
      'DEPENDENCY_MISSING',
      'OpenTelemetry was asked for (--otel or the policy\'s "otel: true") but @opentelemetry/api is ' +
        'not installed: run `npm install @opentelemetry/api` beside narrowing-guard, and register an ' +
        'OpenTelemetry SDK with an exporter (see docs/visibility.md), or turn --otel off',
      { cause: error },
    );
  }
  const trace = (api as Partial<OtelApi> | undefined)?.trace;
  if (typeof trace?.getTracer !== 'function') {
    throw new NarrowingError(
      'DEPENDENCY_MISSING',
      '@opentelemetry/api was found but has no trace API: install a 1.x version (^1.3.0)',
    );
  }
  return api as OtelApi;
}
