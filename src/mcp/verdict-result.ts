import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CheckResult } from '../core/types.js';
import { VERDICT_META_KEY, verdictMeta, verdictText } from '../guard/verdict.js';

/** The result returned instead of running a blocked or halted call: an error the model can act on. */
export function refusedResult(check: CheckResult): CallToolResult {
  return {
    content: [{ type: 'text', text: verdictText(check) }],
    isError: true,
    _meta: { [VERDICT_META_KEY]: verdictMeta(check) },
  };
}

/** The upstream result of a warned call, with the warning appended and the upstream `_meta` kept. */
export function warnedResult(result: CallToolResult, check: CheckResult): CallToolResult {
  return {
    ...result,
    content: [...(result.content ?? []), { type: 'text', text: verdictText(check) }],
    _meta: { ...result._meta, [VERDICT_META_KEY]: verdictMeta(check) },
  };
}
