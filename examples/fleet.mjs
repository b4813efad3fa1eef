import { openGuard } from 'narrowing-guard';

// Two agents of one repository (on two machines, in practice) share what they learn through Redis.
const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const alice = await openGuard({ store: redis, journal: false });
const bob = await openGuard({ store: redis, journal: false });

const read = { tool: 'read_file', args: { path: 'config/prod.yaml' } };
alice.check(read);
alice.record({
  proposal: read,
  success: false,
  content: "ENOENT: no such file or directory, open 'config/prod.yaml'",
});
await new Promise((resolve) => setTimeout(resolve, 250)); // pub/sub takes milliseconds

const verdict = bob.check(read);
console.log(`bob: ${verdict.verdict}: ${verdict.reason}`);
await Promise.all([alice.close(), bob.close()]);
