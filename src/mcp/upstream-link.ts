import type { Client } from '@modelcontextprotocol/client';

/** The part of the supervised upstream the request handlers use. */
export interface UpstreamLink {
  client(): Promise<Client>;
  /** Called after a call timed out, to tell a slow tool from a hung server. */
  suspectHang?(timeoutMs: number): Promise<void>;
}
