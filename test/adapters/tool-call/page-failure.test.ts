import { describe, expect, it } from 'vitest';
import { pageFailureKey } from '../../../src/adapters/tool-call/page-failure.js';

const PAGE = 'https://docs.example.com/guide/server-functions';

describe('the key a read of web pages fails under', () => {
  it('is the same for two prompts of a fetch of one page', () => {
    const first = pageFailureKey(
      'WebFetch',
      { url: PAGE, prompt: 'Summarize how server functions are declared.' },
      [PAGE],
    );
    const second = pageFailureKey(
      'WebFetch',
      { url: PAGE, prompt: 'List every option of a server function, please.' },
      [PAGE],
    );
    expect(first).toBeDefined();
    expect(second).toBe(first);
  });

  it('differs for another page', () => {
    const other = 'https://docs.example.com/guide/data-loading';
    expect(
      pageFailureKey('WebFetch', { url: other, prompt: 'Summarize how loaders fetch their data.' }, [other]),
    ).not.toBe(
      pageFailureKey('WebFetch', { url: PAGE, prompt: 'Summarize how loaders fetch their data.' }, [PAGE]),
    );
  });

  it('reads the pages from the words of a tool that takes only a prompt', () => {
    const first = pageFailureKey('web_fetch', { prompt: `Summarize the guide at ${PAGE}.` }, []);
    const second = pageFailureKey(
      'web_fetch',
      { prompt: `What options does ${PAGE} list for a server function?` },
      [],
    );
    expect(first).toBeDefined();
    expect(second).toBe(first);
  });

  it('is none for a fetch with no instructions, whose call key says all it fails by', () => {
    expect(
      pageFailureKey('mcp__fetch__fetch', { url: PAGE, max_length: 5000, start_index: 0 }, [PAGE]),
    ).toBeUndefined();
  });

  it('is none for a read of a file, whatever words it carries', () => {
    const file = '/repo/docs/guide.md';
    expect(
      pageFailureKey('Read', { file_path: file, explanation: 'Read the guide to learn the options' }, [file]),
    ).toBeUndefined();
  });

  it('keeps a CSS selector in the key: a value, not instructions', () => {
    expect(
      pageFailureKey('mcp__browser__get_text', { url: PAGE, selector: 'main article > p' }, [PAGE]),
    ).toBeUndefined();
  });
});
