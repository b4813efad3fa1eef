import { type JSONRPCMessage, parseJSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * The message on one line, exactly as the SDK's `deserializeMessage` reads it: a `SyntaxError` when
 * the line is not JSON, a validation error when it is not a JSON-RPC message, and otherwise the
 * message. Walking the schema costs more than parsing the JSON and, for the usual shapes, only
 * copies what it was given; those shapes are recognised here and returned as parsed. Anything
 * unusual (an extra key, a reserved `_meta` entry the schema reshapes) goes through the schema.
 */
export function parseMessageLine(line: string): JSONRPCMessage {
  const value: unknown = JSON.parse(line);
  return isPlainMessage(value) ? value : parseJSONRPCMessage(value);
}

const RELATED_TASK_KEY = 'io.modelcontextprotocol/related-task';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

const KEYS = {
  request: new Set(['jsonrpc', 'id', 'method', 'params']),
  notification: new Set(['jsonrpc', 'method', 'params']),
  result: new Set(['jsonrpc', 'id', 'result']),
  error: new Set(['jsonrpc', 'id', 'error']),
  errorBody: new Set(['code', 'message', 'data']),
};

function isPlainMessage(value: unknown): value is JSONRPCMessage {
  if (!isObject(value) || value.jsonrpc !== '2.0') return false;
  if ('method' in value) {
    if (typeof value.method !== 'string' || !isPlainParams(value.params)) return false;
    return 'id' in value ? isId(value.id) && hasOnly(value, KEYS.request) : hasOnly(value, KEYS.notification);
  }
  if ('result' in value) return isId(value.id) && isPlainResult(value.result) && hasOnly(value, KEYS.result);
  if (!('error' in value) || (value.id !== undefined && !isId(value.id)) || !hasOnly(value, KEYS.error)) {
    return false;
  }
  const { error } = value;
  return (
    isObject(error) &&
    Number.isSafeInteger(error.code) &&
    typeof error.message === 'string' &&
    hasOnly(error, KEYS.errorBody)
  );
}

function isPlainParams(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isObject(params) || !isLoose(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isObject(meta) || !isLoose(meta) || RELATED_TASK_KEY in meta) return false;
  const token = meta.progressToken;
  return token === undefined || isId(token);
}

function isPlainResult(result: unknown): boolean {
  if (!isObject(result) || !isLoose(result)) return false;
  const meta = result._meta;
  return meta === undefined || (isObject(meta) && isLoose(meta) && !(SERVER_INFO_KEY in meta));
}

function isId(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function hasOnly(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** Keys the schema copies as they are: all but `__proto__`, which a copy by assignment would not keep. */
function isLoose(value: Record<string, unknown>): boolean {
  return !Object.hasOwn(value, '__proto__');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
