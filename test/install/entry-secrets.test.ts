import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MCP_CLIENTS } from '../../src/install/clients.js';
import { entryValue, fillEntry, MAX_ENTRY_CHARS, maskEntry } from '../../src/install/entry-secrets.js';

const claude = MCP_CLIENTS.claude;
const codex = MCP_CLIENTS.codex;

const GITHUB_PAT = 'ghp_4fK9sQ2mX7vB1nL8pR3tY6wZ0aC5dE2gH9jK';
const OPENAI_KEY = 'sk-proj-Qm3v9XkL2pT8wR5nB7cY1zD4fG6hJ0aS';
const DB_PASSWORD = 'Tr0ub4dor&3';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

/** A server entry as people write one: secrets in env, in an argument, after a flag, in a URL. */
const ENTRY = `{
      "command": "npx",
      "args": [
        "-y",
        "@acme/mcp-server",
        "--api-key",
        "k3y-5tays-5ecret",
        "postgresql://app:${DB_PASSWORD}@db.internal:5432/shop",
        "--verbose"
      ],
      "env": {
        "GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_PAT}",
        "OPENAI_API_KEY": "${OPENAI_KEY}",
        "AWS_SECRET_ACCESS_KEY": "${AWS_SECRET}",
        "SLACK_TOKEN": "\${SLACK_TOKEN}",
        "LOG_LEVEL": "debug"
      }
    }`;

const SECRETS = [GITHUB_PAT, OPENAI_KEY, DB_PASSWORD, AWS_SECRET, 'k3y-5tays-5ecret'];

const CODEX_ENTRY = `[mcp_servers.shop]
command = 'uvx' # launcher
args = ["shop-mcp", "--password", '${DB_PASSWORD}']
startup_timeout_sec = 20

[mcp_servers.shop.env]
STRIPE_API_KEY = "sk_live_51HqLyjWDarjtT1zdp7dc9a2b"
REGION = 'eu-west-1'
`;

describe('masking a saved server entry', () => {
  it('replaces every secret of a JSON entry by a numbered marker', () => {
    const masked = maskEntry(ENTRY, claude);
    expect(masked.complete).toBe(true);
    for (const secret of SECRETS) expect(masked.text).not.toContain(secret);
    expect(masked.text).toContain('"--api-key",\n        "[REDACTED#1]"');
    expect(masked.text).toContain('"postgresql://app:[REDACTED#2]@db.internal:5432/shop"');
    expect(masked.text).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN": "[REDACTED#3]"');
  });

  it('keeps what is not a secret, variable references included', () => {
    const masked = maskEntry(ENTRY, claude).text;
    expect(masked).toContain(`"SLACK_TOKEN": "\${SLACK_TOKEN}"`);
    expect(masked).toContain('"LOG_LEVEL": "debug"');
    expect(masked).toContain('"@acme/mcp-server"');
  });

  it("masks a Codex table's secrets in the quoting each value had", () => {
    const masked = maskEntry(CODEX_ENTRY, codex);
    expect(masked.complete).toBe(true);
    expect(masked.text).not.toContain(DB_PASSWORD);
    expect(masked.text).not.toContain('sk_live_');
    expect(masked.text).toMatch(/"--password", '\[REDACTED#\d\]'\]/);
    expect(masked.text).toMatch(/STRIPE_API_KEY = "\[REDACTED#\d\]"/);
    expect(masked.text).toContain("REGION = 'eu-west-1'");
  });

  it('says it is incomplete when masking a TOML value would also rewrite a key spelled the same', () => {
    const table =
      '[mcp_servers.shop]\ncommand = "uvx"\n\n[mcp_servers.shop.env]\n"hunter2" = "1"\nDB_PASSWORD = "hunter2"\n';
    expect(maskEntry(table, codex).complete).toBe(false);
  });

  it('says it is incomplete when a secret sits in a comment, where no value holds it', () => {
    const commented = ENTRY.replace('"--verbose"', `"--verbose" // old key: ${OPENAI_KEY}`);
    expect(maskEntry(commented, claude).complete).toBe(false);
  });
});

describe('filling a masked entry back from the live one', () => {
  it('gives the JSON entry back byte for byte', () => {
    const masked = maskEntry(ENTRY, claude).text;
    const filled = fillEntry(masked, claude, { value: entryValue(ENTRY, claude) });
    expect(filled).toEqual({ text: ENTRY, unfilled: [] });
  });

  it('gives the TOML table back byte for byte', () => {
    const masked = maskEntry(CODEX_ENTRY, codex).text;
    const filled = fillEntry(masked, codex, { value: entryValue(CODEX_ENTRY, codex) });
    expect(filled).toEqual({ text: CODEX_ENTRY, unfilled: [] });
  });

  it('takes the command line from the upstream command, where a wrapped entry keeps it', () => {
    const masked = maskEntry(ENTRY, claude).text;
    const value = entryValue(ENTRY, claude) as { command: string; args: string[] };
    const filled = fillEntry(masked, claude, {
      value: { ...value, command: 'npx', args: ['-y', 'narrowing-guard', 'mcp', '--', 'npx', ...value.args] },
      upstream: { command: 'npx', args: value.args },
    });
    expect(filled.text).toBe(ENTRY);
  });

  it('finds a masked argument that moved, when one argument before it was removed', () => {
    const masked = maskEntry(ENTRY, claude).text;
    const value = entryValue(ENTRY, claude) as { args: string[] };
    const args = value.args.filter((arg) => arg !== '-y');
    const filled = fillEntry(masked, claude, {
      value: { ...value, args },
      upstream: { command: 'npx', args },
    });
    expect(filled.unfilled).toEqual([]);
    expect(filled.text).toContain('"--api-key",\n        "k3y-5tays-5ecret"');
    expect(filled.text).toContain(`"postgresql://app:${DB_PASSWORD}@db.internal:5432/shop"`);
  });

  it('names the secrets the live entry no longer holds, and leaves them masked', () => {
    const masked = maskEntry(ENTRY, claude).text;
    const value = entryValue(ENTRY, claude) as { env: Record<string, string> };
    const { GITHUB_PERSONAL_ACCESS_TOKEN: _gone, ...env } = value.env;
    const filled = fillEntry(masked, claude, { value: { ...value, env } });
    expect(filled.unfilled).toEqual(['env.GITHUB_PERSONAL_ACCESS_TOKEN']);
    expect(filled.text).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN": "[REDACTED#');
    expect(filled.text).toContain(OPENAI_KEY);
  });

  it('refuses a live value that would not mask to what was saved there', () => {
    const masked = maskEntry(ENTRY, claude).text;
    const value = entryValue(ENTRY, claude) as { args: string[] };
    const args = value.args.map((arg) => arg.replace(DB_PASSWORD, 'hunter2').replace('app:', 'root:'));
    const filled = fillEntry(masked, claude, { value: { ...value, args } });
    expect(filled.unfilled).toEqual(['args[4]']);
  });
});

const envName = fc.constantFrom('GITHUB_TOKEN', 'API_KEY', 'DB_PASSWORD', 'LOG_LEVEL', 'HOME_DIR', 'SESSION');
const secretValue = fc.oneof(
  fc.stringMatching(/^ghp_[A-Za-z0-9]{36}$/),
  fc.stringMatching(/^sk-[A-Za-z0-9]{20,30}$/),
  fc.stringMatching(/^[A-Za-z0-9!&%]{6,16}$/),
);

describe('masking any entry', () => {
  it('leaves no secret in the text, and filling from the entry itself gives it back', () => {
    fc.assert(
      fc.property(
        fc.dictionary(envName, secretValue, { minKeys: 1 }),
        fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }),
        fc.constantFrom(0, 2, 4),
        (env, args, indent) => {
          const text = JSON.stringify({ command: 'npx', args, env }, null, indent);
          const masked = maskEntry(text, claude);
          const secrets = Object.entries(env).filter(([key]) => key !== 'LOG_LEVEL' && key !== 'HOME_DIR');
          for (const [key, secret] of secrets) {
            expect(masked.text).not.toContain(
              `${JSON.stringify(key)}:${indent ? ' ' : ''}${JSON.stringify(secret)}`,
            );
          }
          expect(fillEntry(masked.text, claude, { value: entryValue(text, claude) }).text).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('saves no entry far longer than a server definition', () => {
    const huge = JSON.stringify({
      command: 'npx',
      args: Array.from({ length: 20_000 }, (_, at) => `--flag-${at}`),
    });
    expect(huge.length).toBeGreaterThan(MAX_ENTRY_CHARS);
    expect(maskEntry(huge, claude).complete).toBe(false);
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.constantFrom(claude, codex), (text, client) => {
        const masked = maskEntry(text, client);
        fillEntry(masked.text, client, { value: entryValue(text, client) });
      }),
      { numRuns: 500 },
    );
  });
});
