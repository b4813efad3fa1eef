// Registers an OpenTelemetry SDK that prints each finished span as one JSON line on stderr (stdout
// is the hook's answer to the agent), for a quick look before wiring a real backend:
//   NODE_OPTIONS="--import ./examples/otel/stderr.mjs" npx narrowing-guard hook claude-code --otel
// For an OpenTelemetry Collector or Jaeger, export over OTLP instead (docs/visibility.md).
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const stderrExporter = {
  export(spans, done) {
    for (const span of spans) {
      const events = span.events.map((event) => ({ name: event.name, attributes: event.attributes }));
      process.stderr.write(`${JSON.stringify({ name: span.name, attributes: span.attributes, events })}\n`);
    }
    done({ code: 0 });
  },
  shutdown: async () => undefined,
};

trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(stderrExporter)] }),
);
