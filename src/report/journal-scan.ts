/** Reading what reports need from a journal in one streaming pass, skipping damaged lines. */
import { type JournalEntry, readJournal } from '../audit/index.js';
import type { VerdictKind } from '../core/types.js';

export interface BlockNote {
  readonly seq: number;
  readonly at: number;
  readonly tool: string;
  readonly verdict: Extract<VerdictKind, 'block' | 'halt'>;
  readonly rule?: string;
  readonly reason?: string;
  readonly sessionId?: string;
}

export interface RecentBlocks {
  /** Oldest first. */
  readonly blocks: readonly BlockNote[];
  /** Blocks in the whole journal. */
  readonly total: number;
  /** Lines that were not journal entries (run `narrowing-guard verify` to see why). */
  readonly badLines: number;
  /** Blocks and disputes of them (`narrowing-guard feedback`), by rule. */
  readonly byRule?: Readonly<Record<string, RuleDisputes>>;
}

export interface RuleDisputes {
  blocks: number;
  disputed: number;
}

export function isBlock(entry: JournalEntry): entry is Extract<JournalEntry, { type: 'proposal' }> {
  return entry.type === 'proposal' && (entry.verdict === 'block' || entry.verdict === 'halt');
}

/** The last `limit` blocked or halted proposals. */
export async function recentBlocks(path: string, limit: number): Promise<RecentBlocks> {
  const blocks: BlockNote[] = [];
  let total = 0;
  let badLines = 0;
  const byRule = new Map<string, RuleDisputes>();
  const ruleOf = (rule: string | undefined) => {
    const name = rule ?? 'unknown';
    let counts = byRule.get(name);
    if (counts === undefined) {
      counts = { blocks: 0, disputed: 0 };
      byRule.set(name, counts);
    }
    return counts;
  };
  const entries = readJournal(path, { onBadLine: () => badLines++ });
  for await (const entry of entries) {
    if (entry.type === 'dispute' && entry.verdict !== 'warn') ruleOf(entry.rule).disputed++;
    if (!isBlock(entry)) continue;
    ruleOf(entry.rule).blocks++;
    total++;
    blocks.push({
      seq: entry.seq,
      at: entry.at,
      tool: entry.tool,
      verdict: entry.verdict as BlockNote['verdict'],
      ...(entry.rule !== undefined && { rule: entry.rule }),
      ...(entry.reason !== undefined && { reason: entry.reason }),
      ...(entry.sessionId !== undefined && { sessionId: entry.sessionId }),
    });
    if (blocks.length > limit) blocks.shift();
  }
  return { blocks, total, badLines, byRule: Object.fromEntries(byRule) };
}
