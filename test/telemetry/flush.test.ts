import { describe, expect, it } from 'vitest';
import { forceFlush } from '../../src/telemetry/index.js';
import type { OtelTracerProvider } from '../../src/telemetry/types.js';

/** A provider as the API hands it out: a proxy whose delegate is the SDK's provider. */
function proxied(forceFlushOfSdk: () => Promise<void>): OtelTracerProvider {
  const sdk: OtelTracerProvider = {
    getTracer: () => {
      throw new Error('not used');
    },
    forceFlush: forceFlushOfSdk,
  };
  return { getTracer: sdk.getTracer, getDelegate: () => sdk };
}

describe('flushing spans', () => {
  it('waits for the SDK provider behind the API proxy to hand its spans over', async () => {
    let flushed = false;
    await forceFlush(
      proxied(async () => {
        flushed = true;
      }),
    );
    expect(flushed).toBe(true);
  });

  it('stops waiting after its limit when the exporter never answers (a Collector that is down)', async () => {
    const never = new Promise<void>(() => undefined);
    await expect(
      forceFlush(
        proxied(() => never),
        20,
      ),
    ).resolves.toBeUndefined();
  });

  it('resolves when the exporter fails, so that a guard never fails for want of a backend', async () => {
    await expect(
      forceFlush(proxied(() => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:4318')))),
    ).resolves.toBeUndefined();
  });
});
