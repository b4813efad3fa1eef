import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactText } from '../../src/audit/index.js';
import { redactTextExhaustively, secretsInArguments } from '../../src/core/secrets.js';

describe('credential commands', () => {
  it.each([
    ['echo Opaque-pw-7781 | docker login -u ci --password-stdin reg.example', 'Opaque-pw-7781'],
    ["printf '%s' 'two words pw' | podman login --username ci --password-stdin", 'two words pw'],
    ['echo gho_notARealShape99 | gh auth login --with-token', 'gho_notARealShape99'],
    ['docker login -u ci --password-stdin <<< Opaque-pw-7781', 'Opaque-pw-7781'],
    ['docker login -u ci -p Opaque-pw-7781 reg.example', 'Opaque-pw-7781'],
    ['aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
    ['aws configure set aws_session_token FQoGZXIvYXdzEJr-opaque', 'FQoGZXIvYXdzEJr'],
    ['kubectl create secret generic db --from-literal=pw=Opaque-pw-7781', 'Opaque-pw-7781'],
    ['htpasswd -b -c .htpasswd admin Opaque-pw-7781', 'Opaque-pw-7781'],
    ['curl -u admin:Opaque-pw-7781 https://api.example', 'Opaque-pw-7781'],
    ['vault-cli --client-secret Opaque-pw-7781 --region eu', 'Opaque-pw-7781'],
  ])('redacts the secret of `%s`', (command, secret) => {
    const clean = redactText(command);
    expect(clean).not.toContain(secret);
    expect(clean).toContain(REDACTED);
  });

  it.each([
    'git log --oneline 3f9c2a71d0e4b5a6c7d8e9f0a1b2c3d4e5f6a7b8',
    'sha256sum: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'mkdir -p build/out && ls -la',
    'llm --max-tokens 4096 --model small',
    'docker login -u ci --password-stdin reg.example < token-file',
    'echo hello | grep h',
    'npm login --registry https://registry.example',
    'id 123e4567-e89b-12d3-a456-426614174000',
  ])('keeps `%s` as it is', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('provider key shapes', () => {
  it.each([
    'SG.abcdefghijklmnop.abcdefghijklmnopqrstuvwxyz0123456789ABCD',
    'xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef',
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    `pypi-AgEIcHlwaS5vcmcCJGE4ZjY4ZjQ4LWZkMjctNGFlOS04ZTJmLWM4ZDYyOTZmMTk2NwACKlszLCJ`,
    `dop_v1_${'a1b2c3d4'.repeat(8)}`,
    'AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  ])('redacts %s', (text) => {
    expect(redactText(`failed with ${text} today`)).toContain(REDACTED);
  });
});

describe('secrets a call carries', () => {
  it('takes values under secret keys and what patterns redact, not short or ordinary values', () => {
    const secrets = secretsInArguments({
      service: 'billing',
      api_key: 'zq8XvL2mT9wR4bK7pN3s',
      pin: { password: 'abc' },
      command: 'echo Opaque-pw-7781 | docker login -u ci --password-stdin reg.example',
      max_tokens: 4096,
    });
    expect([...secrets].sort()).toEqual(['Opaque-pw-7781', 'zq8XvL2mT9wR4bK7pN3s']);
  });

  it('never throws and stays bounded on arbitrary arguments', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(secretsInArguments(value).length).toBeLessThanOrEqual(300);
      }),
      { numRuns: 300 },
    );
  });

  it('redacts with the hint scan what running every pattern redacts', () => {
    const pieces = [
      'echo ',
      ' | ',
      'docker login',
      ' --password-stdin',
      ' -p ',
      'htpasswd -b ',
      'curl -u a:',
      '--from-literal=a=',
      'aws configure set x_secret ',
      ' <<< ',
      'x',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 10 })), { maxLength: 16 }),
        (parts) => {
          const text = parts.join('');
          expect(redactText(text)).toBe(redactTextExhaustively(text));
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
