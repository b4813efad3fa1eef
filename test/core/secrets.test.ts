import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeCall } from '../../src/core/identity/index.js';
import type { Constraint } from '../../src/core/index.js';
import {
  HINT_TABLE_MAKING,
  hintBits,
  hintBitsExhaustively,
  persistableConstraint,
  REDACTED,
  redactConstraint,
  redactRemembered,
  redactText,
  redactTextExhaustively,
} from '../../src/core/secrets.js';
import { growth } from '../growth.js';
import { learnedBan } from './support.js';

describe('redactText', () => {
  const secrets: [string, string, string][] = [
    [
      'a Stripe live secret key',
      'stripe.api_key set from sk_live_51HqLyjWDarjtT1zdp7dcXYZab',
      'sk_live_51Hq',
    ],
    ['a Stripe restricted key', 'charge failed for rk_live_51HqLyjWDarjtT1zdp7dcXYZab', 'rk_live_51Hq'],
    ['a Hugging Face token', 'HF login with hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'hf_AbCd'],
    ['an npm token', '//registry.npmjs.org/:_authToken npm_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R', 'npm_1a2B'],
    [
      'a Slack webhook URL',
      'POST https://hooks.slack.com/services/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 failed',
      'xYzAbC123',
    ],
    ['a password written as `password: x`', 'config error at line 4: password: hunter2!', 'hunter2'],
    [
      'a JSON password inside a text',
      'request body {"user": "deploy", "password": "correct horse battery"} rejected',
      'correct horse',
    ],
    [
      'a MySQL password glued to -p',
      'mysql -h db.internal -u root -pS3cr3tPa55 orders < dump.sql',
      'S3cr3tPa55',
    ],
    [
      'an AWS secret key with spaces around =',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'wJalrXUtnFEMI',
    ],
  ];
  for (const [what, text, secret] of secrets) {
    it(`removes ${what} and keeps the text around it`, () => {
      const clean = redactText(text);
      expect(clean).not.toContain(secret);
      expect(clean).toContain(REDACTED);
    });
  }

  it('keeps the message around a JSON password', () => {
    expect(redactText('body {"user": "deploy", "password": "hunter2"} rejected')).toBe(
      `body {"user": "deploy", "password": ${REDACTED}} rejected`,
    );
  });

  it('keeps token counts, which are not credentials', () => {
    expect(redactText('max_tokens: 4096, temperature: 0.2')).toBe('max_tokens: 4096, temperature: 0.2');
  });

  it('redacts an environment assignment once, not twice', () => {
    expect(redactText('GITHUB_TOKEN=ghx12345678 npm publish')).toBe(`GITHUB_TOKEN=${REDACTED} npm publish`);
  });

  it('leaves ordinary commands and errors alone', () => {
    for (const text of [
      'mkdir -p build/out && cp -r dist build/out',
      "ENOENT: no such file or directory, open '/srv/api/config/app.yaml'",
      'SyntaxError: Unexpected token } in JSON at position 42',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });

  it('is idempotent and stays linear on long hostile texts', async () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const once = redactText(text);
        expect(redactText(once)).toBe(once);
      }),
    );
    // Both sizes past 64 KB, which texts up to that length take another path than.
    const hostile = (scale: number) =>
      `password: ${'a'.repeat(50_000 * scale)} ${'mysql '.repeat(5_000 * scale)}${'token= '.repeat(5_000 * scale)}`;
    const texts = new Map([1, 16].map((scale) => [scale, hostile(scale)]));
    // Each text is new to it (a text seen again may be answered from memory): sixteen times the text
    // takes about sixteen times as long; a pattern that backtracks, 256 times. The bound sits a
    // factor of four from each, so a busy machine does not decide it.
    let round = 0;
    const redactNew = (scale: number) => {
      round += 1;
      return redactText(`${round} ${texts.get(scale)}`);
    };
    expect(await growth(redactNew, 16)).toBeLessThan(64);
  });

  /** Pieces of credentials, of their keys and of ordinary texts, for texts where patterns meet. */
  const PIECES = [
    'password',
    'Password: ',
    'GITHUB_TOKEN=',
    'api_key',
    'access-key',
    'private_key',
    'secret',
    '=',
    ': ',
    '"',
    "'",
    ' ',
    '\n',
    '@',
    'https://deploy:',
    'https://hooks.slack.com/services/',
    '?token=',
    '&sig=',
    ';key=',
    'sk-',
    'sk_live_',
    'rk_test_',
    'ghp_',
    'github_pat_',
    'glpat-',
    'xoxb-',
    'AKIA',
    'ASIAIza',
    'ASIA',
    'pi_key=',
    'AIza',
    'eyJ',
    'hf_',
    'npm_',
    'Bearer ',
    'Authorization: Basic ',
    'proxy-authorization=',
    '-----BEGIN RSA PRIVATE KEY-----',
    '-----END RSA PRIVATE KEY-----',
    'mysql -u root -p',
    'mariadb ',
    'abcdefghijklmnop0123456789ABCDEFGHIJ',
    'k3Y.v4lue-',
    'const retries = 3;',
    '[REDACTED]',
    'max_tokens: 4096',
    'PASSWORD=',
    'Api-Key: ',
    'X-Access_Key=',
    'Hooks.Slack.com/services/',
    'HTTPS://HOOKS.SLACK.COM/services/',
    '-----begin ',
    'TOKEN',
    'MySQL -p',
    '#SIGNATURE=',
    '&Client_Secret=',
    '?passwd=',
    '&Refresh_Token=',
    '?api-key=',
    '&Sig',
    '=',
    ';',
  ];

  it('gives what running every pattern gives, whichever patterns it skips', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 12 })), { maxLength: 24 }),
        (pieces) => {
          const text = pieces.join('');
          expect(redactText(text)).toBe(redactTextExhaustively(text));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('redacts long texts seen again, and texts of one length with other secrets, as running every pattern does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 12 })), { maxLength: 12 }),
        fc.array(fc.nat(11), { minLength: 1, maxLength: 20 }),
        (pieces, order) => {
          // Texts of one length (a kilobyte of code and a line) that differ in their secrets only.
          const code = 'const value = context.lookup(key);\n'.repeat(40);
          const texts = pieces.map(
            (piece, index) => `${code}${piece}${'#'.repeat(40 - (piece.length % 40))}${index % 10}`,
          );
          for (const at of order) {
            const text = texts[at % Math.max(1, texts.length)] ?? code;
            expect(redactText(text)).toBe(redactTextExhaustively(text));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('redacts a key word that begins inside another one', () => {
    // `ASIA` (an AWS key's start) ends where `api_key` begins.
    expect(redactText('export ASIApi_key=hunter22 && deploy')).toBe(
      `export ASIApi_key=${REDACTED} && deploy`,
    );
  });
});

describe('a JWT among runs of its characters', () => {
  /** The expression the JWT's pattern replaced, which read a run again from each `eyJ` in it, and the pattern. */
  const BEFORE = /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g;
  const AFTER = /(?<![\w-])(?=[\w-]*\.[\w-]{8,}\.[\w-]{8,})([\w-]*?)\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g;
  const token =
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

  it('is redacted where the expression it replaced redacted it, whatever stands around it', () => {
    const pieces = [
      'eyJ',
      'eyJhbGciOiJIUzI1NiJ9',
      'abcdefgh',
      'abc',
      '-',
      '_',
      '.',
      ' ',
      'é',
      'x',
      '9',
      'token=',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(text.replace(AFTER, `$1${REDACTED}`)).toBe(text.replace(BEFORE, REDACTED));
      }),
      { numRuns: 3000 },
    );
    expect(redactText(`Authorization-free header x-jwt-${token} sent`)).toBe(
      `Authorization-free header x-jwt-${REDACTED} sent`,
    );
  });

  it('reads a run of `eyJ-` once: sixteen times longer costs under 64 times as much', async () => {
    let round = 0;
    const hostile = (scale: number) => `${round++} ${'eyJ-'.repeat(4_000 * scale)}x`;
    expect(await growth((scale) => redactText(hostile(scale)), 16)).toBeLessThan(64);
  });
});

describe('redactText with secrets of every kind planted in code and in text past ASCII', () => {
  /** One credential of each shape the patterns know, as a call's arguments would carry it. */
  const PLANTED = [
    'Authorization: Bearer abc123def456ghi789',
    'proxy-authorization="Basic dXNlcjpwYXNzd29yZA=="',
    'sk-proj-Zq8Xv2Lm9Tw4Rb7KpL3n',
    'sk_live_51HqLyjWDarjtT1zdp7dcXYZab',
    'rk_test_4eC39HqLyjWDarjtT1zdp7dc',
    'hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
    'npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab',
    'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12',
    'github_pat_11ABCDEFG0123456789_abcdefghij',
    'glpat-Zq8Xv2Lm9Tw4Rb7KpL3n',
    'xoxb-1234567890-abcdefghij',
    'AKIAIOSFODNN7EXAMPLE',
    'AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N',
    'https://deploy:s3cr3tP4ss@registry.example.com/v2/',
    'https://api.example.com/v1?access_token=abcdef123456&page=2',
    'GITHUB_TOKEN=ghs_abcdefghijklmnopqrstuvwxyz0123',
    '"db_password": "correct horse battery"',
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'mysql -u root -pS3cretPass shop',
    'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX',
    'xapp-1-A0123456789-0123456789012-abcdef',
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    'echo hunter2 | docker login -u me --password-stdin',
    'docker login -u me --password-stdin <<< hunter2',
    'docker login -u me -p hunter2 registry.example',
    'cli deploy --client-secret s3cr3tvalue',
    'kubectl create secret generic db --from-literal=password=hunter2',
    'aws configure set aws_session_token FQoGZXIvYXdzEXAMPLE',
    'htpasswd -b .htpasswd admin hunter2',
    'curl -u admin:hunter22 https://api.example.com',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq\n-----END RSA PRIVATE KEY-----',
  ];
  /** Text around them: code, and characters past ASCII, some of whose low seven bits spell hints. */
  const FILLER = [
    "  const value = context.lookup('key-1') ?? defaults[3];\n",
    'Grüße, 日本語のテキスト — ',
    String.fromCharCode(0x100 + 115, 0x100 + 107, 0x100 + 45),
    String.fromCharCode(0x180 + 116, 0x200 + 111, 0x280 + 107, 0x300 + 101, 0x380 + 110),
    '😀 émoji ',
    ' ',
    '\n',
  ];
  const casing = fc.constantFrom(
    (text: string) => text,
    (text: string) => text.toUpperCase(),
    (text: string) => text.toLowerCase(),
  );
  const piece = fc.oneof(
    fc.tuple(fc.constantFrom(...PLANTED), casing).map(([secret, cased]) => cased(secret)),
    fc.constantFrom(...FILLER),
    fc.string({ maxLength: 8, unit: 'binary' }),
  );

  it('finds the hints a text holds as looking for each hint in turn does, whatever stands around them', () => {
    // Each hint's text, cut anywhere, beside code whose pairs stand in hints (`ke`, `ok`, `ey`).
    const fragment = fc
      .tuple(
        fc.constantFrom(...PLANTED, 'token=', 'api_key', 'apikey', 'key=', 'eyJ', 'xox', 'sk_'),
        fc.nat(40),
        fc.nat(40),
      )
      .map(([text, from, to]) => text.slice(Math.min(from, to), Math.max(from, to) + 1));
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            piece,
            fragment,
            casing.map((cased) => cased('key')),
          ),
          { maxLength: 16 },
        ),
        (pieces) => {
          const text = pieces.join('');
          expect(hintBits(text)).toBe(hintBitsExhaustively(text));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('redacts short texts exactly as running every pattern does', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(redactText(text)).toBe(redactTextExhaustively(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('redacts kilobytes of code with a secret at any place, to its last character, as running every pattern does', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 6 }),
        fc.nat(4_096),
        fc.constantFrom(1_100, 4_096, 70_000),
        (pieces, at, length) => {
          const code = FILLER[0]?.repeat(Math.ceil(length / 50)).slice(0, length) ?? '';
          const where = at % (code.length + 1);
          const planted = pieces.join('');
          for (const text of [
            `${code.slice(0, where)}${planted}${code.slice(where)}`,
            `${code}${planted}`,
            `${code} ${planted}`,
            `${code}  ${planted}`,
          ]) {
            expect(redactText(text)).toBe(redactTextExhaustively(text));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('redactRemembered', () => {
  it('gives what redactText gives, the first time and every time after', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 30 }), (pieces) => {
        const texts = pieces.map((piece, index) => `${piece} password=${piece}${index % 3}`);
        for (const text of [...texts, ...texts, ...texts.reverse()]) {
          expect(redactRemembered(text)).toBe(redactText(text));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('gives what every pattern gives for short texts seen again and again, through either door', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'src/orders/module-7.ts',
        ' password=hunter22 ',
        'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12',
        'ENOENT: no such file or directory, open ',
        '\n',
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(piece, { maxLength: 8 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 80 }),
        (texts, picks) => {
          const pool = texts.map((pieces) => pieces.join(''));
          for (const [pick, remembered] of picks) {
            const text = pool[pick % pool.length] as string;
            const clean = remembered ? redactRemembered(text) : redactText(text);
            expect(clean).toBe(redactTextExhaustively(text));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('redacts a long text it does not remember', () => {
    const text = `${'x'.repeat(5_000)} GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123`;
    expect(redactRemembered(text)).toBe(redactText(text));
    expect(redactRemembered(text)).not.toContain('ghp_abcdef');
  });
});

describe('a call said in a few words', () => {
  it('never shows the start of a token it cuts', () => {
    const token = 'ghp_Zq8Xv2Lm9Tw4Rb7KpL3nQ8sTw1Yc5Hd0Jf6G';
    const nested = describeCall('edit_file', {
      path: 'src/config.ts',
      edits: [{ newText: 'x', oldText: `const token = "${token}";\nexport default token;` }],
    });
    const flat = describeCall('write_file', { content: `${'x'.repeat(40)} ${token}` });
    expect(nested).not.toContain('ghp_Zq8');
    expect(flat).not.toContain('ghp_Zq8');
  });
});

describe('a ban as it leaves the process', () => {
  it('keeps the text an edit searched for as a hash and a masked excerpt', () => {
    const keyLine = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
    const ban = persistableConstraint({
      id: 'c_1',
      type: 'banned_strategy',
      scope: 'call',
      signature: 'edit_failed',
      actionClass: 'file_edit',
      meaning: 'content-missing',
      needle: `key: ${keyLine}\nrest`,
      evidence: { failures: 2, firstAt: 1, lastAt: 2, lastError: 'not found', calls: [] },
      createdAt: 1,
      expiresAt: 10,
      strikes: 0,
      probation: false,
      persistent: true,
    });
    expect(ban).not.toHaveProperty('needle');
    expect(ban.needleExcerpt).toBe('key: [REDACTED]');
    expect(ban.needleHash).toMatch(/^[0-9a-f]{16}$/);
    expect(persistableConstraint(ban)).toEqual(ban);
  });
});

describe('a URL with a password inside a path', () => {
  it('loses its password once its // has been collapsed', () => {
    expect(redactText('mirror/https:/deploy:Hunter2Secret99@git.example.com/x')).toBe(
      'mirror/https:/deploy:[REDACTED]@git.example.com/x',
    );
  });
});

describe('a ban shown at every check it decides', () => {
  const token = 'ghp_Zq8Xv2Lm9Tw4Rb7KpL3nQ8sTw1Yc5Hd0Jf6G';
  const strategy = (calls: readonly string[]): Constraint =>
    learnedBan({
      id: 'c_strategy',
      scope: 'strategy',
      signature: 'file_not_found',
      actionClass: 'file_read',
      evidence: {
        failures: calls.length,
        firstAt: 1,
        lastAt: 2,
        lastError: `ENOENT: no such file, open 'notes.md' (GITHUB_TOKEN=${token})`,
        calls,
      },
      createdAt: 1,
      expiresAt: 10,
    });

  it('has its evidence redacted once for as long as the evidence lasts', () => {
    const ban = strategy(['docs/a.md', `https://user:${token}@example.com/b.md`, 'docs/c.md']);
    const first = redactConstraint(ban);
    const again = redactConstraint({ ...ban });
    expect(first.evidence.calls[1]).toBe(`https://user:${REDACTED}@example.com/b.md`);
    expect(first.evidence.lastError).not.toContain(token);
    // The same redacted calls, not worked out again.
    expect(again.evidence.calls).toBe(first.evidence.calls);
  });

  it('has new evidence redacted afresh once it learns again', () => {
    const ban = strategy(['docs/a.md']);
    const shown = redactConstraint(ban);
    const learned = strategy(['docs/a.md', `docs/b.md?token=${token}`]);
    const after = redactConstraint({ ...ban, evidence: learned.evidence });
    expect(shown.evidence.calls).toEqual(['docs/a.md']);
    expect(after.evidence.calls).toEqual(['docs/a.md', `docs/b.md?token=${REDACTED}`]);
  });
});

describe('the tables of the scan for hints of credentials', () => {
  it('come out of their shipped form equal to the tables worked out from the hint texts', () => {
    const shipped = HINT_TABLE_MAKING.shipped();
    expect(shipped.table.length).toBeGreaterThan(0);
    expect(HINT_TABLE_MAKING.decode(shipped.table)).toEqual(HINT_TABLE_MAKING.ofTexts());
  });

  it('are shipped in the build, which reads them instead of working them out', async () => {
    const dist = new URL('../../dist/core/', import.meta.url);
    expect(existsSync(new URL('built-secret-hints.js', dist)), 'run `npm run build` first').toBe(true);
    const { BUILT_SECRET_HINTS } = await import(new URL('built-secret-hints.js', dist).href);
    const built = await import(new URL('secrets.js', dist).href);
    expect(built.HINT_TABLE_MAKING.fromBuild).toBe(true);
    expect(BUILT_SECRET_HINTS).toEqual(HINT_TABLE_MAKING.shipped());
    const text =
      'curl -H "Authorization: Bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a" https://api.github.com/user';
    expect(built.redactText(text)).toBe(redactText(text));
  });
});
