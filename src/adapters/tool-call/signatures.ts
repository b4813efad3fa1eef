/**
 * The failure signatures of tool calls, read from structured transport data first (HTTP status,
 * error code, exception name, exit status) and from the message text second. The catalogue is data,
 * by family, in `./signatures/`; the engine that matches it is `./matcher.ts`.
 */
export * from './signatures/index.js';
