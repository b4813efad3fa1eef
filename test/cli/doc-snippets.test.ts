import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The fenced code blocks of a Markdown text, diff markers taken off each line. */
function codeBlocks(text: string): string[] {
  const blocks: string[] = [];
  for (const match of text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)) {
    blocks.push((match[1] ?? '').replace(/^[+-](?![+-])/gm, ''));
  }
  return blocks;
}

/** Ways a snippet names the package to fetch or install: each must say `narrowing-guard`. */
const WRONG_PACKAGE = [
  /\bnpx\s+(?:-y\s+|--yes\s+)?narrowing(?![-\w])/,
  /"(?:-y|--yes)"\s*,\s*"narrowing"/,
  /"narrowing"\s*,\s*"(?:mcp|hook|install|wrap)"/,
  /\bnpm\s+(?:install|i|add)\b[^\n]*\snarrowing(?![-\w/.])/,
];

describe('documented snippets', () => {
  for (const document of documents) {
    it(`${document} names the package narrowing-guard wherever a snippet fetches or installs it`, () => {
      const text = readFileSync(join(root, document), 'utf8');
      for (const block of codeBlocks(text)) {
        for (const pattern of WRONG_PACKAGE) expect(block, `${document}: ${pattern}`).not.toMatch(pattern);
      }
    });
  }
});
