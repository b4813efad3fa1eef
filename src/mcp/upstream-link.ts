import type { Client } from '@modelcontextprotocol/client';
import type { CrashLedger } from './crash-ledger.js';

/** The part of the supervised upstream the request handlers use. */
export interface UpstreamLink {
  client(): Promise<Client>;
  /** Called after a call timed out, to tell a slow tool from a hung server. */
  suspectHang?(timeoutMs: number): Promise<void>;
  /** The calls in flight each time the server went down, to find a call that crashes it every time. */
  readonly crashes?: CrashLedger;
}
