import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const GUESSES = [
  '/etc/nginx/nginx.conf.d/shop.conf',
  '/etc/nginx/conf.d/shop.conf',
  '/etc/nginx/sites-available/shop',
  '/etc/nginx/shop.conf',
  '/srv/shop/nginx.conf',
];

function missing(path: string) {
  return { text: `cat: ${path}: No such file or directory`, isError: true };
}

/** Five guesses at where a file is, each failing: the streak that blocks the next guess. */
function guessedFiveTimes(): Agent {
  const agent = new Agent();
  for (const path of GUESSES) agent.call('bash', { command: `cat ${path}` }, missing(path));
  return agent;
}

describe('a guess that follows what a listing showed', () => {
  it('blocks a sixth blind guess at the path', () => {
    const agent = guessedFiveTimes();
    const check = agent.check('bash', { command: 'cat /opt/nginx/conf/shop.conf' });
    expect(check.verdict).toBe('block');
    expect(check.violations.map((violation) => violation.rule)).toContain('error-streak');
  });

  it('lets through a guess naming a file the listing since the last failure showed', () => {
    const agent = guessedFiveTimes();
    agent.call('bash', { command: 'ls /etc/nginx/sites-enabled' }, 'default\nshop-site.conf\n');
    expect(agent.check('bash', { command: 'cat /etc/nginx/sites-enabled/shop-site.conf' }).verdict).not.toBe(
      'block',
    );
  });

  it('keeps what a listing showed in a guard restored from a snapshot, as hook processes do', () => {
    const first = guessedFiveTimes();
    first.call('bash', { command: 'ls /etc/nginx/sites-enabled' }, 'default\nshop-site.conf\n');
    const second = new Agent();
    second.loop.restore(JSON.parse(JSON.stringify(first.loop.snapshot())));
    expect(second.check('bash', { command: 'cat /etc/nginx/sites-enabled/shop-site.conf' }).verdict).not.toBe(
      'block',
    );
    expect(second.check('bash', { command: 'cat /opt/nginx/conf/shop.conf' }).verdict).toBe('block');
  });

  it('lets through a guess naming a file a search printed the path of', () => {
    const agent = guessedFiveTimes();
    agent.call(
      'bash',
      { command: 'find / -name "*shop*.conf" 2>/dev/null' },
      '/usr/local/nginx/conf/vhosts/shop-site.conf\n',
    );
    expect(
      agent.check('bash', { command: 'cat /usr/local/nginx/conf/vhosts/shop-site.conf' }).verdict,
    ).not.toBe('block');
  });

  it('still blocks a guess naming none of the files the listing showed', () => {
    const agent = guessedFiveTimes();
    agent.call('bash', { command: 'ls /etc/nginx/sites-enabled' }, 'default\nshop-site.conf\n');
    expect(agent.check('bash', { command: 'cat /etc/nginx/sites-enabled/shop.conf' }).verdict).toBe('block');
  });

  it('blocks a guess naming a shown file that a guess since the listing has already tried', () => {
    const agent = guessedFiveTimes();
    agent.call('bash', { command: 'ls /etc/nginx/sites-enabled' }, 'default\nshop-site.conf\n');
    agent.call('bash', { command: 'cat /etc/nginx/shop-site.conf' }, missing('/etc/nginx/shop-site.conf'));
    expect(agent.check('bash', { command: 'cat /srv/nginx/shop-site.conf' }).verdict).toBe('block');
  });
});
