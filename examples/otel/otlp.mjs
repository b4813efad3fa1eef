// Registers an OpenTelemetry SDK that sends narrowing's spans over OTLP/HTTP to an OpenTelemetry
// Collector, Jaeger or any backend that takes OTLP (docs/visibility.md):
//   npm install @opentelemetry/api @opentelemetry/sdk-trace-base @opentelemetry/resources \
//     @opentelemetry/exporter-trace-otlp-http
//   NODE_OPTIONS="--import ./examples/otel/otlp.mjs" npx narrowing-guard hook claude-code --otel
// The endpoint is OpenTelemetry's own setting: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (a full URL), else
// OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces), else http://localhost:4318/v1/traces. The service is
// OTEL_SERVICE_NAME, else narrowing-guard. narrowing flushes the spans before a hook process exits.
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

trace.setGlobalTracerProvider(
  new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || 'narrowing-guard' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  }),
);
