/**
 * `JSON.stringify` that stops writing once the text passes a limit: a tool result of any size costs
 * at most the limit to serialise. Below the limit the text is exactly what `JSON.stringify` writes
 * (bigints as strings); past it, the text is cut there and says how much was kept. A 10 MB `Buffer`
 * is never turned into 40 MB of JSON first.
 */

/** Characters of a result's JSON the guard reads; beyond them it is cut. */
export const RESULT_JSON_LIMIT = 1_000_000;

/** Thrown inside the writer when the limit is reached; never leaves this module. */
const FULL = Symbol('full');

class Writer {
  #parts: string[] = [];
  #length = 0;
  readonly #stack = new Set<object>();

  constructor(readonly limit: number) {}

  get room(): number {
    return this.limit - this.#length;
  }

  text(): string {
    return this.#parts.join('');
  }

  put(text: string): void {
    if (text.length >= this.room) {
      this.#parts.push(text.slice(0, this.room));
      this.#length = this.limit;
      throw FULL;
    }
    this.#parts.push(text);
    this.#length += text.length;
  }

  /** A string, escaped; a long one is cut before it is escaped. */
  string(text: string): void {
    this.put(JSON.stringify(text.length > this.room ? text.slice(0, this.room) : text));
  }

  /** Writes `value` and returns true, or returns false for what JSON leaves out. */
  value(value: unknown, key: string): boolean {
    const resolved = resolve(value, key);
    if (!isWritten(resolved)) return false;
    this.resolved(resolved);
    return true;
  }

  /** Writes a value whose `toJSON` was already applied and that JSON writes. */
  resolved(current: unknown): void {
    switch (typeof current) {
      case 'string':
        this.string(current);
        return;
      case 'number':
        this.put(Number.isFinite(current) ? String(current) : 'null');
        return;
      case 'boolean':
        this.put(current ? 'true' : 'false');
        return;
      case 'bigint':
        this.string(current.toString());
        return;
      default:
        if (current === null) this.put('null');
        else this.object(current as object);
    }
  }

  object(value: object): void {
    if (value instanceof Number || value instanceof String || value instanceof Boolean) {
      this.value(value.valueOf(), '');
      return;
    }
    if (this.#stack.has(value)) throw new TypeError('Converting circular structure to JSON');
    this.#stack.add(value);
    if (ArrayBuffer.isView(value)) this.view(value);
    else if (Array.isArray(value)) this.array(value);
    else this.record(value as Record<string, unknown>);
    this.#stack.delete(value);
  }

  array(items: readonly unknown[]): void {
    this.put('[');
    for (let index = 0; index < items.length; index += 1) {
      if (index > 0) this.put(',');
      if (!this.value(items[index], String(index))) this.put('null');
    }
    this.put(']');
  }

  record(record: Record<string, unknown>): void {
    this.put('{');
    let first = true;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const value = resolve(record[key], key);
      if (!isWritten(value)) continue;
      this.put(`${first ? '' : ','}${JSON.stringify(key)}:`);
      this.resolved(value);
      first = false;
    }
    this.put('}');
  }

  /** A `Buffer` as its `toJSON` would have it, any other view by its indices; read item by item. */
  view(view: ArrayBufferView): void {
    const items = view instanceof DataView ? undefined : (view as unknown as ArrayLike<number | bigint>);
    const isBuffer = typeof (view as { toJSON?: unknown }).toJSON === 'function';
    if (items === undefined) {
      this.put('{}');
      return;
    }
    this.put(isBuffer ? '{"type":"Buffer","data":[' : '{');
    if (isBuffer) {
      // Bytes take at least two characters each with their commas: read no more than fit.
      const bytes = view as unknown as Uint8Array;
      const fit = Math.min(bytes.length, Math.ceil(this.room / 2) + 1);
      this.put(Array.prototype.join.call(bytes.subarray(0, fit), ','));
      if (fit < bytes.length) this.put(',');
    } else {
      for (let index = 0; index < items.length; index += 1) {
        const item = items[index] as number | bigint;
        const text =
          typeof item === 'bigint'
            ? JSON.stringify(item.toString())
            : Number.isFinite(item)
              ? String(item)
              : 'null';
        this.put(`${index > 0 ? ',' : ''}"${index}":${text}`);
      }
    }
    this.put(isBuffer ? ']}' : '}');
  }
}

/** The value as JSON sees it: after its `toJSON` (a `Buffer`'s is read item by item instead). */
function resolve(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? toJSON.call(value, key) : value;
}

/** False for what JSON leaves out of an object (and writes as null in an array). */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

/**
 * The JSON text of `value`, at most `limit` characters of it: cut there with a note of the cut.
 * Throws what `JSON.stringify` throws (a cycle, a `toJSON` or getter that throws).
 */
export function boundedJson(value: unknown, limit = RESULT_JSON_LIMIT): string {
  const writer = new Writer(limit);
  try {
    if (!writer.value(value, '')) return '';
  } catch (error) {
    if (error !== FULL) throw error;
    return `${writer.text()}… [cut: the first ${limit} characters of its JSON]`;
  }
  return writer.text();
}
