import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MCP_CLIENTS } from '../../src/install/clients.js';
import { entryValue, fillEntry, maskEntry } from '../../src/install/entry-secrets.js';
import { nodeValue, type ObjectNode } from '../../src/install/jsonc.js';
import { NPX_LAUNCHER, readWrapped, wrapCommand } from '../../src/install/launcher.js';
import { restoreWrappedFields, type SavedEntries } from '../../src/install/restore-fields.js';
import { findServer, readConfigDocument, readEntry, rewriteCommand } from '../../src/install/server-entry.js';
import { detectStyle } from '../../src/install/text-style.js';

const claude = MCP_CLIENTS.claude;

function stdioEntry(text: string) {
  const member = findServer(readConfigDocument(text, claude, '.mcp.json'), 'server')!;
  const reading = readEntry(member.value);
  if (reading.kind !== 'stdio') throw new Error('not a stdio entry');
  return reading;
}

/** Replaces the value of `env` in the server's entry, as a person editing the file would. */
function withEnv(text: string, env: Record<string, string>): string {
  const entry = stdioEntry(text).entry as ObjectNode;
  const member = entry.members.find((each) => each.key === 'env')!;
  return text.slice(0, member.value.start) + JSON.stringify(env) + text.slice(member.value.end);
}

function entryText(text: string): string {
  const { entry } = stdioEntry(text);
  return text.slice(entry.start, entry.end);
}

/** What unwrap hands over: the record's masked entries, and the current entry masked alike. */
function savedEntries(originalEntry: string, wrappedEntry: string, config: string): SavedEntries {
  const reading = stdioEntry(config);
  const wrapped = readWrapped(reading.command);
  const live = {
    value: entryValue(entryText(config), claude),
    upstream: wrapped.wrapped ? wrapped.upstream : undefined,
  };
  return {
    original: fillEntry(originalEntry, claude, live),
    wrapped: wrappedEntry,
    current: maskEntry(entryText(config), claude).text,
    client: claude,
  };
}

const word = fc.string({ minLength: 1, maxLength: 12 });
const entryArbitrary = fc.record({
  command: word,
  args: fc.option(fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }), { nil: undefined }),
  env: fc.dictionary(word, fc.string({ maxLength: 12 }), { maxKeys: 3 }),
  indent: fc.constantFrom(0, 2, 4),
});

describe('unwrapping an entry whose env was edited after wrapping', () => {
  it('gives the original entry with the edited env, byte for byte', () => {
    fc.assert(
      fc.property(
        entryArbitrary,
        fc.dictionary(word, fc.string({ maxLength: 12 }), { maxKeys: 3 }),
        (shape, newEnv) => {
          const { indent, ...entry } = shape;
          const definition = entry.args === undefined ? { command: entry.command, env: entry.env } : entry;
          const original = `${JSON.stringify({ mcpServers: { server: definition } }, null, indent)}\n`;
          const reading = stdioEntry(original);
          const wrappedCommand = wrapCommand(NPX_LAUNCHER, [], reading.command);
          const wrapped = rewriteCommand(original, reading, wrappedCommand, detectStyle(original));
          const edited = withEnv(wrapped, newEnv);
          const saved = savedEntries(
            maskEntry(entryText(original), claude).text,
            maskEntry(entryText(wrapped), claude).text,
            edited,
          );
          const restored = restoreWrappedFields(edited, stdioEntry(edited), saved);
          expect(restored?.text).toBe(withEnv(original, newEnv));
          const changed = JSON.stringify(newEnv) !== JSON.stringify(entry.env);
          expect(restored?.editedKeys).toEqual(changed ? ['env'] : []);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on a saved record of any text, and restores only from one that parses', () => {
    const text =
      '{ "mcpServers": { "server": { "command": "npx", "args": ["-y", "narrowing-guard", "mcp", "--", "uvx", "mcp-server-fetch"] } } }\n';
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.string({ maxLength: 200 }),
        (originalEntry, wrappedEntry) => {
          const restored = restoreWrappedFields(
            text,
            stdioEntry(text),
            savedEntries(originalEntry, wrappedEntry, text),
          );
          if (restored !== undefined)
            expect(
              nodeValue(readConfigDocument(restored.text, claude, '.mcp.json').parsed.root),
            ).toBeTruthy();
        },
      ),
      { numRuns: 500 },
    );
  });
});
