/**
 * Where the proxy reports. On stdio, stdout is the JSON-RPC channel to the client, so every
 * human-readable line goes to stderr.
 */
export type Log = (message: string) => void;

export const stderrLog: Log = (message) => {
  process.stderr.write(`narrowing: ${message}\n`);
};

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

/** An error about one side of the proxy, phrased so that the reader knows which side. */
export function describeFrom(peer: string, error: unknown): string {
  return error instanceof Error && error.name === 'WireError'
    ? error.message
    : `${peer}: ${describeError(error)}`;
}
