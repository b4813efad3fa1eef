import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';
import { applyChange, planUnwrap, planWrap } from '../../src/install/index.js';
import { readTomlServers, TomlReadError } from '../../src/install/toml-config.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-codex-property-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const homeDir = join(root, 'home');
const projectDir = join(root, 'project');
const configPath = join(homeDir, '.codex', 'config.toml');
mkdirSync(join(homeDir, '.codex'), { recursive: true });
mkdirSync(projectDir, { recursive: true });

const target = {
  projectDir,
  homeDir,
  server: 'target',
  client: 'codex' as const,
  scope: 'user' as const,
  stateDir: join(projectDir, '.narrowing'),
  platform: 'linux' as const,
};

function basic(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** A string value as people write them: basic, literal (when it can be) or escaped. */
const tomlText = fc
  .tuple(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom('basic', 'literal'))
  .map(([value, form]) => {
    const literal = form === 'literal' && !/['\r\n\u007f]|[\u0000-\u0008\u000a-\u001f]/.test(value);
    return { value, text: literal ? `'${value}'` : basic(value) };
  });

const comment = fc.constantFrom('', ' # note', '  #', ' # [mcp_servers.fake]');
const lineBreak = fc.constantFrom('\n', '\r\n');

const argsList = fc
  .tuple(fc.array(fc.tuple(tomlText, comment), { maxLength: 4 }), fc.boolean(), fc.boolean())
  .map(([items, multiline, trailingComma]) => {
    const values = items.map(([item]) => item.value);
    if (!multiline || items.length === 0) {
      return { values, text: `[${items.map(([item]) => item.text).join(', ')}]` };
    }
    const lines = items.map(([item, note], index) => {
      const comma = index < items.length - 1 || trailingComma ? ',' : '';
      return `  ${item.text}${comma}${note}`;
    });
    return { values, text: `[\n${lines.join('\n')}\n]` };
  });

const serverTable = fc.record({
  command: tomlText.filter((text) => text.value.length > 0),
  commandComment: comment,
  args: fc.option(argsList, { nil: undefined }),
  extra: fc.subarray(['startup_timeout_sec = 20', 'enabled = true', 'cwd = "/srv/app"', 'env = { A = "1" }']),
  envTable: fc.boolean(),
});

const document = fc
  .record({
    server: serverTable,
    other: fc.boolean(),
    preamble: fc.constantFrom('', 'model = "gpt-5-codex"\n', '# settings\napproval_policy = "never"\n\n'),
    eol: lineBreak,
    finalNewline: fc.boolean(),
  })
  .map(({ server, other, preamble, eol, finalNewline }) => {
    const lines = [
      `${preamble}[mcp_servers.target]`,
      `command = ${server.command.text}${server.commandComment}`,
    ];
    if (server.args) lines.push(`args = ${server.args.text}`);
    lines.push(...server.extra.filter((line) => !(server.envTable && line.startsWith('env'))));
    if (server.envTable) lines.push('', '[mcp_servers.target.env]', 'TOKEN_NAME = "GITHUB_TOKEN"');
    if (other) lines.push('', '[mcp_servers.other]', 'command = "uvx"', 'args = ["mcp-server-fetch"]');
    const text = lines.join('\n').replaceAll('\n', eol) + (finalNewline ? eol : '');
    return { text, command: server.command.value, args: server.args?.values ?? [] };
  });

describe("wrapping servers of Codex's config.toml", () => {
  it('wraps into a file that still parses, with only the command line changed, and unwraps to the same bytes', () => {
    fc.assert(
      fc.property(document, ({ text, command, args }) => {
        writeFileSync(configPath, text);
        rmSync(target.stateDir, { recursive: true, force: true });
        const [wrap] = planWrap({ ...target, installedLocally: false, launcher: 'npx', now: new Date(0) });
        expect(wrap?.status, wrap?.message).toBe('change');
        applyChange(wrap!);
        const wrapped = parseToml(readFileSync(configPath, 'utf8')) as {
          mcp_servers: Record<string, Record<string, unknown>>;
        };
        expect(wrapped.mcp_servers.target?.command).toBe('npx');
        expect(wrapped.mcp_servers.target?.args).toEqual([
          '-y',
          'narrowing-guard',
          'mcp',
          '--',
          command,
          ...args,
        ]);
        const { command: _c, args: _a, ...rest } = wrapped.mcp_servers.target!;
        const before = parseToml(text) as { mcp_servers: Record<string, Record<string, unknown>> };
        const { command: _bc, args: _ba, ...restBefore } = before.mcp_servers.target!;
        expect(rest).toEqual(restBefore);
        const [unwrap] = planUnwrap(target);
        expect(unwrap?.status, unwrap?.message).toBe('change');
        applyChange(unwrap!);
        expect(readFileSync(configPath, 'utf8')).toBe(text);
      }),
      { numRuns: 150 },
    );
  });
});

describe("reading Codex's config.toml", () => {
  it('reads any text made of TOML pieces, or rejects it with TomlReadError', () => {
    const piece = fc.constantFrom(
      '[mcp_servers.a]',
      '[mcp_servers.a.env]',
      '[[mcp_servers]]',
      'command = "npx"',
      `args = ['x', "y"]`,
      'args = [',
      ']',
      '"',
      "'''",
      '"""',
      '#',
      '\n',
      '\r\n',
      ' ',
      ',',
      '=',
      '{',
      '}',
      'a.b = 1',
      'x = { y = [1, [2]] }',
      'd = 1979-05-27 07:32:00Z',
      'url = "https://example.com/mcp"',
      '\\',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        try {
          readTomlServers(pieces.join(''));
        } catch (error) {
          expect(error).toBeInstanceOf(TomlReadError);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
