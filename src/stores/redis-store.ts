/**
 * The Redis store: a fleet of agents on many machines. Constraints live in one hash, lifted marks
 * in another; a write merges on the server (one Lua script, the same order as every other store)
 * and publishes what it changed, so every subscribed agent has it within milliseconds.
 *
 * Each agent answers from its own engine and keeps a local copy of the shared state: when Redis
 * goes away, the agent goes on working, keeps what it learns, and when Redis comes back it sends
 * everything it knows (a restarted server may have lost its data) and takes in what it missed.
 */

import { NarrowingError } from '../core/errors.js';
import type { PersistedState, StateStore } from '../core/types.js';
import { combineChanges, LocalCopy } from './local-copy.js';
import { importOptionalPeer } from './optional-peer.js';
import {
  DEFAULT_KEY_PREFIX,
  parseRedisAddress,
  type RedisAddress,
  repositoryKeyPrefix,
  withoutSecret,
} from './redis-url.js';
import { constraintToText, parseConstraintText } from './schema.js';
import { isOlderStoredText } from './state-format.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host[:port][/db][?prefix=name]`. */
  readonly url: string | URL;
  /**
   * Starts every key and the channel; agents share state only under the same prefix. Default: one
   * per repository (see `repository`), `narrowing` without one. `?prefix=` in the URL does the same.
   */
  readonly keyPrefix?: string;
  /**
   * The repository the agents work in (`openGuard` passes the one it detects): without a chosen
   * prefix, its own prefix. Bans an older version kept under the shared prefix `narrowing` that
   * hold for it (learned in it, or without a repository) are copied there when it is first opened.
   */
  readonly repository?: string;
  /** How long `save` waits for further changes before writing. Default 10 ms. */
  readonly debounceMs?: number;
  /** How long opening waits for the server. Default 3 s. */
  readonly connectTimeoutMs?: number;
  /** The longest wait between two attempts to reconnect. Default 1 s. */
  readonly reconnectMaxMs?: number;
  /** Problems (the server lost, back, a write that failed); the password is never in them. */
  readonly onProblem?: (message: string) => void;
}

export interface RedisStore extends StateStore {
  /** The server, its password replaced by `***`. */
  readonly address: string;
  readonly keyPrefix: string;
  /** True while the store is connected; false while it works on its local copy. */
  readonly connected: boolean;
  subscribe(listener: (changes: PersistedState) => void): () => void;
}

/** The part of a node-redis client this store uses. */
interface Connection {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  duplicate(): Connection;
  on(event: 'error' | 'ready' | 'end', listener: (error?: Error) => void): unknown;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hGetAll(key: string): Promise<Record<string, string>>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
}

interface RedisModule {
  createClient(options: Record<string, unknown>): Connection;
}

const DEFAULT_DEBOUNCE_MS = 10;
/** Constraints per script call: a full resynchronisation of a large state goes in slices. */
const BATCH = 500;

/**
 * Merges lifted marks and constraints into the two hashes and publishes what changed.
 * KEYS: constraints, lifted. ARGV: channel, origin, count of marks, (id, at)…, count of
 * constraints, (id, lastAt, createdAt, body)…
 */
const MERGE_SCRIPT = `
local published_constraints, published_lifted, malformed = {}, {}, {}
-- The times of a stored constraint, or nil for an entry this store did not write (another
-- program, a hand edit): such an entry is replaced, never allowed to stop the merge.
local function times_of(text)
  local ok, stored = pcall(cjson.decode, text)
  if ok and type(stored) == 'table' and type(stored.evidence) == 'table' and
    type(stored.evidence.lastAt) == 'number' and type(stored.createdAt) == 'number' then
    return stored.evidence.lastAt, stored.createdAt
  end
  return nil
end
local function lifted_at(id)
  local known = redis.call('HGET', KEYS[2], id)
  if not known then return nil end
  local at = tonumber(known)
  if at == nil then table.insert(malformed, 'lifted:' .. id) end
  return at
end
local i = 3
local marks = tonumber(ARGV[i]); i = i + 1
for _ = 1, marks do
  local id, at_text = ARGV[i], ARGV[i + 1]; i = i + 2
  local at = tonumber(at_text)
  local known = lifted_at(id)
  if (not known) or known < at then
    redis.call('HSET', KEYS[2], id, at_text)
    table.insert(published_lifted, '{"id":' .. cjson.encode(id) .. ',"at":' .. at_text .. '}')
    local current = redis.call('HGET', KEYS[1], id)
    if current then
      local stored_last = times_of(current)
      if stored_last == nil then table.insert(malformed, 'constraints:' .. id) end
      if stored_last == nil or stored_last <= at then redis.call('HDEL', KEYS[1], id) end
    end
  end
end
local count = tonumber(ARGV[i]); i = i + 1
for _ = 1, count do
  local id, last_at, created_at, body = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), ARGV[i + 3]
  i = i + 4
  local lifted = lifted_at(id)
  if (not lifted) or lifted < last_at then
    local current = redis.call('HGET', KEYS[1], id)
    local take = true
    if current then
      local stored_last, stored_created = times_of(current)
      if stored_last == nil then
        table.insert(malformed, 'constraints:' .. id)
      else
        take = last_at > stored_last or (last_at == stored_last and
          (created_at > stored_created or (created_at == stored_created and body > current)))
      end
    end
    if take then
      redis.call('HSET', KEYS[1], id, body)
      table.insert(published_constraints, body)
    end
  end
end
if #published_constraints > 0 or #published_lifted > 0 then
  redis.call('PUBLISH', ARGV[1], '{"origin":' .. cjson.encode(ARGV[2]) .. ',"constraints":[' ..
    table.concat(published_constraints, ',') .. '],"lifted":[' .. table.concat(published_lifted, ',') .. ']}')
end
return malformed
`;

/** Replaces each entry (id, text read, text migrated) whose text is still the one read. */
const MIGRATE_SCRIPT = `
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
end
return 0
`;

/**
 * Copies, once per repository prefix, the entries of the shared prefix an older version wrote that
 * hold for the repository: learned in it, or without a repository. Lifted marks come along, so that
 * nothing lifted comes back. The marker key says it was done (and when), even when nothing was copied.
 * KEYS: shared constraints, shared lifted, own constraints, own lifted, marker. ARGV: repository, now.
 */
const ADOPT_SCRIPT = `
if redis.call('SETNX', KEYS[5], ARGV[2]) == 0 then return -1 end
local copied = 0
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  local ok, stored = pcall(cjson.decode, entries[i + 1])
  if ok and type(stored) == 'table' then
    local context = stored.context
    local repository = nil
    if type(context) == 'table' then repository = context.repository end
    if repository == nil or repository == ARGV[1] then
      copied = copied + redis.call('HSETNX', KEYS[3], entries[i], entries[i + 1])
    end
  end
end
local marks = redis.call('HGETALL', KEYS[2])
for i = 1, #marks, 2 do redis.call('HSETNX', KEYS[4], marks[i], marks[i + 1]) end
return copied
`;

/** Connects, reads the shared state, and subscribes to changes. Needs the optional peer `redis`. */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const address = parseRedisAddress(options.url, options.keyPrefix, repositoryKeyPrefix(options.repository));
  const redis = await importOptionalPeer<RedisModule>('redis', 'redis', '^6.3.1');
  const store = new RedisStateStore(redis, address, options);
  await store.open(options.connectTimeoutMs ?? 3_000);
  return store;
}

class RedisStateStore implements RedisStore {
  readonly address: string;
  readonly keyPrefix: string;
  private readonly secret: string | undefined;
  private readonly client: Connection;
  private readonly subscriber: Connection;
  private readonly keys: { readonly constraints: string; readonly lifted: string; readonly channel: string };
  /** The repository whose bans are adopted from the shared prefix, when the prefix is its default. */
  private readonly adopting: string | undefined;
  private readonly origin = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  private readonly copy = new LocalCopy();
  private readonly listeners = new Set<(changes: PersistedState) => void>();
  private readonly debounceMs: number;
  private readonly report: (message: string) => void;
  private source: (() => PersistedState) | undefined;
  private unwritten: PersistedState[] = [];
  private unreported: PersistedState[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private opened = false;
  private closed = false;
  /** Set while the server is away: the next `ready` sends everything and reads everything. */
  private lost = false;

  constructor(redis: RedisModule, address: RedisAddress, options: RedisStoreOptions) {
    this.address = address.display;
    this.keyPrefix = address.keyPrefix;
    this.secret = address.secret;
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.report = options.onProblem ?? warn;
    this.adopting =
      !address.prefixChosen && address.keyPrefix !== DEFAULT_KEY_PREFIX ? options.repository : undefined;
    this.keys = {
      constraints: `${address.keyPrefix}:constraints`,
      lifted: `${address.keyPrefix}:lifted`,
      channel: `${address.keyPrefix}:changes`,
    };
    const reconnectMaxMs = options.reconnectMaxMs ?? 1_000;
    this.client = redis.createClient({
      url: address.connectUrl,
      // Commands fail at once while the server is away; the store keeps them and sends them later.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 3_000,
        // Before the store has opened, a refused connection is an answer: opening fails at once
        // (the caller goes on in memory) rather than retrying until the connect timeout.
        reconnectStrategy: (retries: number, cause: Error) =>
          this.opened ? Math.min(50 * 2 ** retries, reconnectMaxMs) : cause,
      },
    });
    this.subscriber = this.client.duplicate();
    for (const connection of [this.client, this.subscriber]) {
      connection.on('error', (error) => this.connectionLost(error));
      connection.on('ready', () => this.connectionBack());
    }
  }

  get connected(): boolean {
    return this.client.isReady && this.subscriber.isReady;
  }

  async open(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([
        (async () => {
          await this.client.connect();
          await this.subscriber.connect();
          await this.subscriber.subscribe(this.keys.channel, (message) => this.received(message));
          await this.adoptShared();
          await this.download();
        })(),
        timeout,
      ]);
    } catch (error) {
      this.client.destroy();
      this.subscriber.destroy();
      throw new NarrowingError(
        'STORE_UNAVAILABLE',
        `the redis store cannot reach ${this.address}: ${this.clean((error as Error).message)}. ` +
          'Start the server, check the URL, or choose another store with --store file.',
      );
    } finally {
      clearTimeout(timer);
    }
    this.unreported = [];
    this.opened = true;
    this.lost = false;
  }

  load(): PersistedState | undefined {
    const state = this.copy.state();
    return state.constraints.length === 0 && state.lifted.length === 0 ? undefined : state;
  }

  save(state: PersistedState | (() => PersistedState)): void {
    if (this.closed) throw new Error(`The redis store ${this.address} is closed; open a new one to save.`);
    if (typeof state === 'function') this.source = state;
    else this.take(state);
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.enqueueWrite().catch(() => undefined);
    }, this.debounceMs);
    this.timer.unref();
  }

  async flush(): Promise<PersistedState | undefined> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.enqueueWrite();
    const changes = combineChanges(this.unreported);
    this.unreported = [];
    return changes;
  }

  subscribe(listener: (changes: PersistedState) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    this.listeners.clear();
    if (this.unwritten.length > 0) {
      this.report(
        `the redis store closed while ${this.address} was unreachable; what this agent learned since ` +
          'is not shared (it stays in its journal)',
      );
    }
    for (const connection of [this.subscriber, this.client]) {
      if (connection.isReady) await connection.close().catch(() => connection.destroy());
      else connection.destroy();
    }
  }

  private take(state: PersistedState): void {
    const changes = this.copy.absorb(state);
    if (changes) this.unwritten.push(changes);
  }

  private enqueueWrite(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private async write(): Promise<void> {
    const source = this.source;
    this.source = undefined;
    if (source) this.take(source());
    if (this.closed || !this.client.isReady) return;
    const changes = combineChanges(this.unwritten);
    if (changes === undefined) return;
    this.unwritten = [];
    try {
      await this.send(changes);
    } catch (error) {
      this.unwritten.unshift(changes);
      if (!this.lost)
        this.report(`writing to ${this.address} failed: ${this.clean((error as Error).message)}`);
    }
  }

  /** Runs the merge script over `changes`, in slices. */
  private async send(changes: PersistedState): Promise<void> {
    const marks = changes.lifted.flatMap((mark) => [mark.id, String(mark.at)]);
    let first = true;
    for (let start = 0; first || start < changes.constraints.length; start += BATCH) {
      const slice = changes.constraints.slice(start, start + BATCH);
      const args = [
        this.keys.channel,
        this.origin,
        ...(first ? [String(changes.lifted.length), ...marks] : ['0']),
        String(slice.length),
        ...slice.flatMap((constraint) => [
          constraint.id,
          String(constraint.evidence.lastAt),
          String(constraint.createdAt),
          constraintToText(constraint),
        ]),
      ];
      const malformed = await this.client.eval(MERGE_SCRIPT, {
        keys: [this.keys.constraints, this.keys.lifted],
        arguments: args,
      });
      if (Array.isArray(malformed) && malformed.length > 0) {
        this.reportMalformed(malformed.map(String), 'replaced them with what this agent learned');
      }
      first = false;
    }
  }

  /** The first time this repository's own prefix is opened: its bans from the shared prefix. */
  private async adoptShared(): Promise<void> {
    if (this.adopting === undefined) return;
    const copied = await this.client.eval(ADOPT_SCRIPT, {
      keys: [
        `${DEFAULT_KEY_PREFIX}:constraints`,
        `${DEFAULT_KEY_PREFIX}:lifted`,
        this.keys.constraints,
        this.keys.lifted,
        `${this.keyPrefix}:adopted`,
      ],
      arguments: [this.adopting, String(Date.now())],
    });
    if (typeof copied === 'number' && copied > 0) {
      this.report(
        `copied ${copied} ${copied === 1 ? 'ban' : 'bans'} of this repository from the shared prefix ` +
          `${DEFAULT_KEY_PREFIX} on ${this.address} to its own, ${this.keyPrefix}`,
      );
    }
  }

  /** Reads the whole shared state; what is new reaches the listeners. */
  private async download(): Promise<void> {
    const [constraints, lifted] = await Promise.all([
      this.client.hGetAll(this.keys.constraints),
      this.client.hGetAll(this.keys.lifted),
    ]);
    const malformed: string[] = [];
    const readConstraints = Object.entries(constraints).flatMap(([id, body]) => {
      const constraint = parseConstraintText(body);
      if (constraint === undefined || constraint.id !== id) malformed.push(`constraints:${id}`);
      return constraint === undefined || constraint.id !== id ? [] : [constraint];
    });
    const marks = Object.entries(lifted).flatMap(([id, at]) => {
      const time = Number(at);
      if (at.trim() === '' || !Number.isFinite(time)) malformed.push(`lifted:${id}`);
      return at.trim() === '' || !Number.isFinite(time) ? [] : [{ id, at: time }];
    });
    if (malformed.length > 0) this.reportMalformed(malformed, 'skipped them');
    this.deliver({ version: 1, savedAt: Date.now(), constraints: readConstraints, lifted: marks });
    await this.migrateOlder(constraints);
  }

  /**
   * Rewrites the entries an older state format wrote (see `state-format.ts`) in this one's, each
   * only if it is still what was read: builds of both versions may share the server.
   */
  private async migrateOlder(constraints: Record<string, string>): Promise<void> {
    const rewrites: string[] = [];
    for (const [id, body] of Object.entries(constraints)) {
      if (!isOlderStoredText(body)) continue;
      const constraint = parseConstraintText(body);
      if (constraint !== undefined) rewrites.push(id, body, constraintToText(constraint));
    }
    for (let start = 0; start < rewrites.length; start += BATCH * 3) {
      await this.client.eval(MIGRATE_SCRIPT, {
        keys: [this.keys.constraints],
        arguments: rewrites.slice(start, start + BATCH * 3),
      });
    }
  }

  private received(message: string): void {
    let parsed: { origin?: unknown; constraints?: unknown; lifted?: unknown };
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (parsed.origin === this.origin) return;
    const constraints = Array.isArray(parsed.constraints) ? parsed.constraints : [];
    const lifted = Array.isArray(parsed.lifted) ? parsed.lifted : [];
    this.deliver({
      version: 1,
      savedAt: Date.now(),
      // Whatever arrives on the channel is checked like a file read from disk.
      constraints: constraints.flatMap((item) => parseConstraintText(JSON.stringify(item)) ?? []),
      lifted: lifted.flatMap((item: { id?: unknown; at?: unknown }) =>
        typeof item?.id === 'string' && typeof item.at === 'number' ? [{ id: item.id, at: item.at }] : [],
      ),
    });
  }

  private deliver(state: PersistedState): void {
    const changes = this.copy.absorb(state);
    if (changes === undefined) return;
    this.unreported.push(changes);
    for (const listener of this.listeners) listener(changes);
  }

  private connectionLost(error?: Error): void {
    if (!this.opened || this.closed || this.lost) return;
    this.lost = true;
    this.report(
      `lost ${this.address} (${this.clean(error?.message ?? 'connection closed')}); ` +
        'working on the local copy until it is back',
    );
  }

  /** Back after an outage: send everything this agent knows, then take in what it missed. */
  private connectionBack(): void {
    if (!this.opened || this.closed || !this.lost || !this.connected) return;
    this.lost = false;
    this.writing = this.writing.then(async () => {
      try {
        this.unwritten = [];
        await this.send(this.copy.state());
        await this.download();
        this.report(`${this.address} is back; the shared state is resynchronised`);
      } catch (error) {
        this.lost = true;
        this.unwritten.push(this.copy.state());
        this.report(`resynchronising with ${this.address} failed: ${this.clean((error as Error).message)}`);
      }
    });
  }

  /** Says which entries (`hash:id`) this store could not read, and what it did with them. */
  private reportMalformed(entries: readonly string[], action: string): void {
    const shown = entries.slice(0, 5).map((entry) => `${this.keyPrefix}:${entry}`);
    const more = entries.length > shown.length ? ` and ${entries.length - shown.length} more` : '';
    this.report(
      `${entries.length} malformed ${entries.length === 1 ? 'entry' : 'entries'} on ${this.address} ` +
        `(${shown.join(', ')}${more}) ${entries.length === 1 ? 'is' : 'are'} not narrowing's; ${action}`,
    );
  }

  private clean(message: string): string {
    return withoutSecret(message, this.secret);
  }
}

function warn(message: string): void {
  process.emitWarning(`narrowing: ${message}`, 'NarrowingWarning');
}
