import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretKey, REDACTED, redact, redactText } from '../../src/audit/redact.js';

describe('redact', () => {
  it('drops the Authorization header of an HTTP request, whatever its case', () => {
    const request = {
      url: 'https://api.github.com/repos/acme/api/issues',
      method: 'POST',
      headers: { Authorization: 'token 4f9a7c2e1b', 'content-type': 'application/json', Cookie: 'sid=abc' },
    };
    expect(redact(request)).toEqual({
      url: 'https://api.github.com/repos/acme/api/issues',
      method: 'POST',
      headers: { Authorization: REDACTED, 'content-type': 'application/json', Cookie: REDACTED },
    });
  });

  it('removes a GitHub token from a clone URL and keeps the rest of the command', () => {
    const command =
      'git clone https://x-access-token:ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12@github.com/acme/api.git';
    expect(redactText(command)).toBe(`git clone https://x-access-token:${REDACTED}@github.com/acme/api.git`);
  });

  it('removes a token that is the user part of a URL', () => {
    expect(redactText('https://ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12@github.com/acme/api.git')).toBe(
      `https://${REDACTED}@github.com/acme/api.git`,
    );
  });

  it('drops a nested apiKey and keeps its siblings', () => {
    const args = {
      config: { apiKey: 'c2VjcmV0LWtleQ', model: 'gpt-4o', max_tokens: 4096 },
      prompt: 'summarise',
    };
    expect(redact(args)).toEqual({
      config: { apiKey: REDACTED, model: 'gpt-4o', max_tokens: 4096 },
      prompt: 'summarise',
    });
  });

  it('drops values under secret keys inside arrays and maps', () => {
    const value = {
      env: [{ name: 'DB_PASSWORD', password: 'hunter2' }],
      extra: new Map([['session_id', 's-1']]),
    };
    expect(redact(value)).toEqual({
      env: [{ name: 'DB_PASSWORD', password: REDACTED }],
      extra: { session_id: REDACTED },
    });
  });

  const secrets: [string, string][] = [
    ['a bearer token', 'Bearer eyJhbGciOiJIUzI1NiJ9abc123def456'],
    ['an OpenAI key', 'sk-proj-Xa12Bc34De56Fg78Hi90Jk12'],
    ['an Anthropic key', 'sk-ant-api03-Xa12Bc34De56Fg78Hi90Jk12Lm34'],
    ['a GitHub token', 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12'],
    ['a fine-grained GitHub token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop'],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    [
      'a JWT',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.' +
        'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ],
    ['a private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq\n-----END RSA PRIVATE KEY-----'],
  ];
  for (const [what, secret] of secrets) {
    it(`replaces ${what} found in a value under an ordinary key`, () => {
      expect(redact({ note: secret })).toEqual({ note: REDACTED });
    });
  }

  it('redacts secrets inside error text and keeps the message around them', () => {
    const error = "fetch failed: 401 for request with header 'Authorization: Bearer abc123def456ghi789'";
    expect(redactText(error)).toBe(`fetch failed: 401 for request with header 'Authorization: ${REDACTED}'`);
  });

  it('redacts tokens passed in a query string or an environment assignment', () => {
    expect(redactText('GET https://hooks.example.com/notify?channel=ops&access_token=AbC123xyz')).toBe(
      `GET https://hooks.example.com/notify?channel=ops&access_token=${REDACTED}`,
    );
    expect(redactText('GITHUB_TOKEN=abc123 npm publish')).toBe(`GITHUB_TOKEN=${REDACTED} npm publish`);
  });

  it('leaves ordinary prose, paths and ids alone', () => {
    const texts = [
      "ENOENT: no such file or directory, open '/srv/api/src/config.ts'",
      'Bearer authentication is not configured for this endpoint',
      'task-runner finished in 12s with 3 warnings',
      'commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    ];
    for (const text of texts) expect(redactText(text)).toBe(text);
  });

  it('keeps token counts but not tokens', () => {
    expect(redact({ max_tokens: 1024, totalTokens: 88, token: 12345, tokens: ['abc'] })).toEqual({
      max_tokens: 1024,
      totalTokens: 88,
      token: REDACTED,
      tokens: REDACTED,
    });
  });

  it('turns odd values into plain JSON without throwing', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys for you');
        },
      },
    );
    const getter = {
      get broken() {
        throw new Error('getter failed');
      },
    };
    const value = {
      cyclic,
      hostile,
      getter,
      big: 10n ** 20n,
      nan: Number.NaN,
      negativeZero: -0,
      when: new Date('2026-02-18T09:00:07Z'),
      bytes: new Uint8Array(16),
      fn: () => 1,
      url: new URL('https://user:pa55word@example.com/x'),
      error: new Error('token ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12 rejected'),
    };
    expect(redact(value)).toEqual({
      cyclic: { name: 'loop', self: '[circular]' },
      hostile: '[unreadable]',
      getter: '[unreadable]',
      big: '[bigint 100000000000000000000]',
      nan: '[NaN]',
      negativeZero: 0,
      when: '2026-02-18T09:00:07.000Z',
      bytes: '[binary 16 bytes]',
      url: `https://user:${REDACTED}@example.com/x`,
      error: { name: 'Error', message: `token ${REDACTED} rejected` },
    });
  });

  it('keeps a __proto__ key as data', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "path": "a.ts"}');
    const out = redact(parsed) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__', 'path']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('cuts long strings only when asked, after redacting them', () => {
    const long = `${'a'.repeat(20)} ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12 ${'b'.repeat(100)}`;
    const clean = `${'a'.repeat(20)} ${REDACTED} ${'b'.repeat(100)}`;
    expect(redact(long, { maxString: 40 })).toBe(`${clean.slice(0, 40)}…[${clean.length} chars]`);
    expect(redact(long)).toBe(clean);
  });
});

const secretKeys = [
  'password',
  'PASSWORD',
  'db_password',
  'passwd',
  'token',
  'accessToken',
  'refresh_token',
  'secret',
  'client_secret',
  'Authorization',
  'proxy-authorization',
  'api_key',
  'apiKey',
  'x-api-key',
  'AWS_ACCESS_KEY_ID',
  'private_key',
  'cookie',
  'Set-Cookie',
  'session',
  'sessionId',
];

/** Any JSON-like value, plus the odd ones redaction must survive. */
const anything = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.bigInt(),
    fc.date({ noInvalidDate: false }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...secretKeys)), tie('value'), { maxKeys: 4 }),
  ),
})).value;

function secretLeaks(value: unknown, leaks: string[] = [], path = '$'): string[] {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) secretLeaks(item, leaks, `${path}[${index}]`);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      if (isSecretKey(key) && entry !== REDACTED && typeof entry !== 'number') leaks.push(`${path}.${key}`);
      secretLeaks(entry, leaks, `${path}.${key}`);
    }
  }
  return leaks;
}

describe('redact, for any input', () => {
  it('never leaves a value under a secret-like key, at any depth', () => {
    fc.assert(
      fc.property(anything, (value) => {
        expect(secretLeaks(redact(value))).toEqual([]);
      }),
    );
  });

  it('leaves no number under a secret-like key except token counts', () => {
    fc.assert(
      fc.property(fc.constantFrom(...secretKeys), fc.integer(), (key, count) => {
        expect(redact({ [key]: count })).toEqual({ [key]: REDACTED });
      }),
    );
  });

  it('never throws, and always gives plain JSON', () => {
    fc.assert(
      fc.property(anything, (value) => {
        const out = redact(value);
        expect(JSON.parse(JSON.stringify(out))).toEqual(out);
      }),
    );
  });

  it('never throws on cyclic structures', () => {
    fc.assert(
      fc.property(anything, fc.constantFrom(...secretKeys, 'next'), (value, key) => {
        const node: Record<string, unknown> = { value };
        node[key] = node;
        node.list = [node, value];
        expect(() => redact(node)).not.toThrow();
      }),
    );
  });
});
