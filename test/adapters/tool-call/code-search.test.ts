import { describe, expect, it } from 'vitest';
import { isCodeSearch } from '../../../src/adapters/tool-call/code-search.js';
import type { CallFacts } from '../../../src/core/types.js';

const SEARCH: CallFacts = { actionClass: 'search', kind: 'search', targets: [], service: '' };

describe('a code search read from its name', () => {
  it.each(['grep_search', 'mcp__local__grep_search', 'mcp_local_grep_search'])(
    'takes %s, whichever way a host spells its server, for a search of the code',
    (tool) => {
      expect(isCodeSearch({ tool, args: { query: 'createOrder' } }, SEARCH)).toBe(true);
    },
  );

  it.each(['search', 'mcp__files__search', 'mcp_files_search'])(
    'does not take %s for one: a server named for files says nothing of what its tool searches',
    (tool) => {
      expect(isCodeSearch({ tool, args: { query: 'quarterly report' } }, SEARCH)).toBe(false);
    },
  );
});
