import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  extractTargets,
  isWrittenAsParsed,
  normalizePath,
  normalizeTarget,
  normalizeUrl,
} from '../../../src/adapters/tool-call/targets.js';

describe('normalizePath', () => {
  it('resolves dot and dot-dot segments', () => {
    expect(normalizePath('./a/../b.js')).toBe('b.js');
  });

  it('collapses repeated slashes and strips the trailing slash', () => {
    expect(normalizePath('src//lib///x/')).toBe('src/lib/x');
  });

  it('turns backslashes into slashes', () => {
    expect(normalizePath('src\\lib\\x.ts')).toBe('src/lib/x.ts');
  });

  it('keeps absolute paths absolute and stops dot-dot at the root', () => {
    expect(normalizePath('/a/../../etc/passwd')).toBe('/etc/passwd');
  });

  it('keeps leading dot-dot segments of relative paths', () => {
    expect(normalizePath('../../x/./y')).toBe('../../x/y');
  });

  it('keeps Windows drive roots', () => {
    expect(normalizePath('C:\\Users\\me\\..\\x.txt')).toBe('C:/Users/x.txt');
  });

  it('keeps case', () => {
    expect(normalizePath('Src/README.md')).toBe('Src/README.md');
  });

  it('reduces a path that resolves to nothing to a dot', () => {
    expect(normalizePath('a/..')).toBe('.');
  });

  it('keeps the root alone', () => {
    expect(normalizePath('//')).toBe('/');
  });

  it('reads a Windows drive in either case as one drive', () => {
    expect(normalizePath('c:/Users/me/notes.txt')).toBe('C:/Users/me/notes.txt');
  });

  it('leaves names that only start with dots as they are', () => {
    expect(normalizePath('src/.github/..config/.env')).toBe('src/.github/..config/.env');
  });
});

describe('normalizeUrl', () => {
  it('lower-cases scheme and host and keeps the path case', () => {
    expect(normalizeUrl('HTTPS://Example.COM/Docs/Page')).toBe('https://example.com/Docs/Page');
  });

  it('drops the default port and the fragment but keeps the query', () => {
    expect(normalizeUrl('https://example.com:443/a?b=1#top')).toBe('https://example.com/a?b=1');
  });

  it('keeps a non-default port', () => {
    expect(normalizeUrl('http://localhost:8080/x')).toBe('http://localhost:8080/x');
  });

  it('lower-cases the host of a non-special scheme', () => {
    expect(normalizeUrl('s3://My-Bucket/Key.txt')).toBe('s3://my-bucket/Key.txt');
  });

  it('returns a string that does not parse unchanged', () => {
    expect(normalizeUrl('not a url')).toBe('not a url');
  });

  it('reads a URL the parser would write back unchanged as such, without parsing it', () => {
    const url = 'https://api.github.com/repos/octo-org/app/issues?state=open&per_page=100';
    expect(isWrittenAsParsed(url)).toBe(true);
    expect(normalizeUrl(url)).toBe(url);
  });

  it('leaves to the parser every URL it would write otherwise', () => {
    for (const url of [
      'http://127.1/status',
      'http://0x7f.1/status',
      'https://example.com',
      'https://example.com?q=1',
      'https://example.com./a',
      'https://xn--bcher-kva.example/a',
      'https://example.com/a/./b',
      'https://example.com/a/../b',
      'https://example.com/a/%2e%2e/b',
      'https://example.com/a b',
      'https://example.com/a\\b',
      'https://example.com/a^b',
      'https://example.com/a?b=c d',
      "https://example.com/a?b='c'",
      'https://user@example.com/a',
      'https://example.com:443/a',
      'https://-example.com/a',
      'https://example-.com/a',
      'https://Example.com/a',
      'https://example.com/a#top',
      'https://example.com/é',
    ]) {
      expect(isWrittenAsParsed(url)).toBe(false);
    }
  });
});

describe('normalizeTarget', () => {
  it('normalises URLs as URLs', () => {
    expect(normalizeTarget('HTTP://API.github.com/repos/x#frag')).toBe('http://api.github.com/repos/x');
  });

  it('turns file URLs into paths', () => {
    expect(normalizeTarget('file:///tmp/a/../b%20c.txt')).toBe('/tmp/b c.txt');
  });

  it('normalises anything else as a path', () => {
    expect(normalizeTarget('./src/../src/index.ts')).toBe('src/index.ts');
  });
});

describe('normalisation properties', () => {
  const pathish = fc
    .array(fc.constantFrom('a', 'B', '.', '..', '', 'x y', 'C:', '\\', '/', '~', 'é'), { maxLength: 12 })
    .map((parts) => parts.join('/'));

  it('normalizePath is idempotent on path-like strings', () => {
    fc.assert(fc.property(pathish, (path) => normalizePath(normalizePath(path)) === normalizePath(path)));
  });

  it('normalizePath is idempotent and never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = normalizePath(text);
        return normalizePath(once) === once;
      }),
    );
  });

  it('a/./b equals a/b for any segments', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/);
    fc.assert(
      fc.property(segment, segment, (a, b) => normalizePath(`${a}/./${b}`) === normalizePath(`${a}/${b}`)),
    );
  });

  it('a/x/../b equals a/b for any segments', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/).filter((s) => s !== '..');
    fc.assert(
      fc.property(segment, segment, segment, (a, x, b) => normalizePath(`${a}/${x}/../${b}`) === `${a}/${b}`),
    );
  });

  it('a URL read as written the way the parser writes it is one the parser writes back unchanged', () => {
    const generated = fc.webUrl({ withFragments: true, withQueryParameters: true });
    const edges = fc.constantFrom(
      'http://a.b/c//d',
      'http://a.b/c/..x/.y',
      'http://a1.b-c.d2e/x?y=%20z&w=/v?u',
      'https://example.com/a/b.',
      'https://example.com/@x:y;z=1',
      'http://ab--cd.com/a',
      'http://a.0x1/b',
      'http://1.2.3.4/a',
      'http://a.b.c9/x',
    );
    fc.assert(
      fc.property(fc.oneof(generated, edges), (url) => {
        return !isWrittenAsParsed(url) || new URL(url).href === url;
      }),
      { numRuns: 2000 },
    );
  });

  it('normalizeUrl is idempotent on web URLs', () => {
    fc.assert(
      fc.property(fc.webUrl({ withFragments: true, withQueryParameters: true }), (url) => {
        const once = normalizeUrl(url);
        return normalizeUrl(once) === once && !once.includes('#');
      }),
    );
  });

  it('normalizeTarget never throws and is idempotent on any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), pathish), (text) => {
        const once = normalizeTarget(text);
        return normalizeTarget(once) === once;
      }),
    );
  });
});

describe('extractTargets', () => {
  it('takes a line or page number as a position, not a resource', () => {
    expect(extractTargets({ line_number: '2091' }, undefined, { noun: 'goto' })).toEqual([]);
    expect(extractTargets({ query: 'flights', page_number: 3 })).toEqual([]);
  });

  it('takes the file name a search looks for as what it seeks, and the directory it looks in as its target', () => {
    expect(extractTargets({ file_name: 'core.py', dir: 'style' }, undefined, { searching: true })).toEqual([
      'style',
    ]);
    expect(extractTargets({ file_name: 'core.py', dir: 'style' })).toEqual(['core.py', 'style']);
  });

  it('finds paths under any spelling of the argument name', () => {
    expect(extractTargets({ file_path: './src/a.ts' })).toEqual(['src/a.ts']);
    expect(extractTargets({ filePath: 'src/b.ts' })).toEqual(['src/b.ts']);
    expect(extractTargets({ notebook_path: '/nb/x.ipynb' })).toEqual(['/nb/x.ipynb']);
  });

  it('takes every path of a list and both ends of a move', () => {
    expect(extractTargets({ paths: ['a.txt', './b.txt'] })).toEqual(['a.txt', 'b.txt']);
    expect(extractTargets({ source: '/w/a.txt', destination: '/w/b.txt' })).toEqual(['/w/a.txt', '/w/b.txt']);
  });

  it('normalises URLs', () => {
    expect(extractTargets({ url: 'HTTPS://Example.com/Page#x', prompt: 'summarise' })).toEqual([
      'https://example.com/Page',
    ]);
  });

  it('qualifies a path with its repository and branch', () => {
    const args = { owner: 'octo', repo: 'hello', path: 'src/x.ts', branch: 'main' };
    expect(extractTargets(args)).toEqual(['octo/hello@main:src/x.ts']);
  });

  it('joins a relative path onto a repository path', () => {
    expect(extractTargets({ repo_path: '/home/dev/repo', files: ['src/a.ts'] })).toEqual([
      '/home/dev/repo/src/a.ts',
    ]);
  });

  it('takes the repository alone when nothing narrower is named', () => {
    expect(extractTargets({ repo_path: '/home/dev/repo/' })).toEqual(['/home/dev/repo']);
  });

  it('names a created branch as the target', () => {
    const args = { repo_path: '/home/dev/repo', branch_name: 'feature-x' };
    expect(extractTargets(args, undefined, { creating: true })).toEqual(['/home/dev/repo:branch/feature-x']);
  });

  it('pairs a bare number with the tool noun', () => {
    const args = { owner: 'octo', repo: 'hello', issue_number: 42 };
    expect(extractTargets(args)).toEqual(['octo/hello:issue/42']);
    expect(extractTargets({ id: 'abc' }, undefined, { noun: 'page' })).toEqual(['page/abc']);
  });

  it('ignores ids that name the conversation rather than a resource', () => {
    expect(extractTargets({ session_id: 's-1', tool_use_id: 't-1' })).toEqual([]);
  });

  it('finds paths in objects of a list, as in pushing several files', () => {
    const args = { owner: 'o', repo: 'r', branch: 'dev', files: [{ path: 'a.md', content: 'x' }] };
    expect(extractTargets(args)).toEqual(['o/r@dev:a.md']);
  });

  it('reads target arguments from the input schema', () => {
    const schema = {
      type: 'object',
      properties: {
        notebook: { type: 'string', description: 'Path to the notebook file' },
        endpoint: { type: 'string', format: 'uri' },
        pattern: { type: 'string', description: 'Glob pattern of files to exclude' },
      },
    };
    const targets = extractTargets(
      { notebook: './nb/a.ipynb', endpoint: 'https://x.dev/a', pattern: '*.md' },
      schema,
    );
    expect(targets).toEqual(['nb/a.ipynb', 'https://x.dev/a']);
  });

  it('ignores values that are not strings or lists of strings', () => {
    expect(extractTargets({ path: 42, file: { nested: 'x' }, url: null })).toEqual([]);
  });

  it('returns at most sixteen targets', () => {
    const paths = Array.from({ length: 40 }, (_, i) => `f${i}.txt`);
    expect(extractTargets({ paths, files: paths.map((p) => `other/${p}`) }).length).toBeLessThanOrEqual(16);
  });

  it('returns nothing for arguments that are not an object', () => {
    expect(extractTargets(undefined)).toEqual([]);
  });

  it('never throws on arbitrary JSON arguments', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), (args, schema) => {
        const targets = extractTargets(args, schema);
        return Array.isArray(targets) && targets.length <= 16;
      }),
    );
  });
});
