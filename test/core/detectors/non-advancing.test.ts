import { describe, expect, it } from 'vitest';
import { createNonAdvancingDetector } from '../../../src/core/detectors/non-advancing.js';
import type { ObservedOutcome } from '../../../src/core/detectors/types.js';
import {
  callOf,
  failed,
  GARBAGE,
  noProgress,
  policies,
  propose,
  roundTrip,
  succeeded,
  verdicts,
} from './support.js';

const QUERIES = [
  'send email',
  'email sender',
  'smtp',
  'mail notification',
  'notify by mail',
  'outbound message',
];

function search(query: string, policy = policies()) {
  return callOf('tools_search', { query }, { kind: 'search', policy });
}

function noMatch(query: string) {
  return noProgress(`No tools matched "${query}"`);
}

describe('non-advancing', () => {
  it('blocks the fourth search for a missing capability, whatever the queries', () => {
    const detector = createNonAdvancingDetector();
    const steps = QUERIES.map((query) => [search(query), noMatch(query)] as const);
    expect(verdicts(detector, steps)).toEqual(['allow', 'allow', 'allow', 'block', 'block', 'block']);
  });

  it('tells the model to stop searching and report what is missing', () => {
    const detector = createNonAdvancingDetector();
    for (const query of QUERIES.slice(0, 3)) propose(detector, search(query), noMatch(query));
    const violation = detector.check(search('outbound message'));
    expect(violation?.rule).toBe('non-advancing');
    expect(violation?.reason).toContain('tools_search made no progress 3 times in a row');
    expect(violation?.suggestion).toMatch(/stop searching and tell the user/i);
    expect(violation?.evidence.count).toBe(3);
    expect(violation?.evidence.calls).toEqual([
      'tools_search {query: "send email"}',
      'tools_search {query: "email sender"}',
      'tools_search {query: "smtp"}',
    ]);
  });

  it('clears the streak when the tool makes progress before the trip', () => {
    const detector = createNonAdvancingDetector();
    expect(
      verdicts(detector, [
        [search('send email'), noMatch('send email')],
        [search('smtp'), noMatch('smtp')],
        [search('mail'), succeeded('Found 1 tool: gmail_send')],
        [search('calendar'), noMatch('calendar')],
        [search('meeting'), noMatch('meeting')],
        [search('invite'), noMatch('invite')],
        [search('agenda'), noMatch('agenda')],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'block']);
  });

  it('keeps the tool switched off for the run once tripped, even after progress elsewhere', () => {
    const detector = createNonAdvancingDetector();
    for (const query of QUERIES.slice(0, 3)) propose(detector, search(query), noMatch(query));
    // A progressing result of the tool that slipped through (advisory mode) does not lift the trip.
    detector.observe(search('gmail'), succeeded('Found 1 tool: gmail_send'));
    expect(detector.check(search('gmail'))?.severity).toBe('block');
  });

  it('switches the tool back on with a new user message', () => {
    const detector = createNonAdvancingDetector();
    for (const query of QUERIES.slice(0, 3)) propose(detector, search(query), noMatch(query));
    detector.reset('user');
    expect(detector.check(search('smtp'))).toBeUndefined();
  });

  it('counts each tool separately', () => {
    const detector = createNonAdvancingDetector();
    for (const query of QUERIES.slice(0, 3)) propose(detector, search(query), noMatch(query));
    expect(detector.check(callOf('web_search', { query: 'smtp relay' }, { kind: 'search' }))).toBeUndefined();
  });

  it('neither counts nor resets on a harness fault in the middle of a streak', () => {
    const detector = createNonAdvancingDetector();
    const timeout = failed('timeout', 'harness_fault', 'Request timed out after 30s');
    expect(
      verdicts(detector, [
        [search('send email'), noMatch('send email')],
        [search('email sender'), noMatch('email sender')],
        [search('smtp'), timeout],
        [search('smtp'), noMatch('smtp')],
        [search('mail'), noMatch('mail')],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'block']);
  });

  it('neither counts nor clears on an agent failure, which is not progress', () => {
    const detector = createNonAdvancingDetector();
    const invalid = failed('invalid_argument', 'agent_failure', 'Invalid arguments: query must not be empty');
    expect(
      verdicts(detector, [
        [search('send email'), noMatch('send email')],
        [search('email sender'), noMatch('email sender')],
        [search(''), invalid],
        [search('smtp'), noMatch('smtp')],
        [search('mail'), noMatch('mail')],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'block']);
  });

  it('applies a threshold overridden for the tool by exact name', () => {
    const detector = createNonAdvancingDetector();
    const policy = policies({ tools: { tools_search: { detectors: { nonAdvancing: { blockAfter: 5 } } } } });
    const steps = QUERIES.map((query) => [search(query, policy), noMatch(query)] as const);
    expect(verdicts(detector, steps)).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'block']);
  });

  it('applies a threshold overridden for the tool by glob', () => {
    const detector = createNonAdvancingDetector();
    const policy = policies({ tools: { 'tools_*': { detectors: { nonAdvancing: { blockAfter: 1 } } } } });
    const steps = QUERIES.slice(0, 2).map((query) => [search(query, policy), noMatch(query)] as const);
    expect(verdicts(detector, steps)).toEqual(['allow', 'block']);
  });

  it('never fires for an exempt tool', () => {
    const detector = createNonAdvancingDetector();
    const policy = policies({ tools: { tools_search: { exempt: true } } });
    const steps = QUERIES.map((query) => [search(query, policy), noMatch(query)] as const);
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('keeps a tripped tool switched off through a snapshot and restore', () => {
    const first = createNonAdvancingDetector();
    for (const query of QUERIES.slice(0, 3)) propose(first, search(query), noMatch(query));
    const second = createNonAdvancingDetector();
    roundTrip(first, second);
    expect(second.check(search('notify by mail'))?.severity).toBe('block');
  });

  it('keeps an untripped streak through a snapshot and restore', () => {
    const first = createNonAdvancingDetector();
    for (const query of QUERIES.slice(0, 2)) propose(first, search(query), noMatch(query));
    const second = createNonAdvancingDetector();
    roundTrip(first, second);
    expect(
      verdicts(second, [
        [search('smtp'), noMatch('smtp')],
        [search('mail'), noMatch('mail')],
      ]),
    ).toEqual(['allow', 'block']);
  });

  it('ignores a snapshot it cannot read and starts empty', () => {
    for (const garbage of GARBAGE) {
      const detector = createNonAdvancingDetector();
      for (const query of QUERIES.slice(0, 3)) propose(detector, search(query), noMatch(query));
      detector.restore(garbage);
      expect(detector.check(search('smtp'))).toBeUndefined();
    }
  });

  it('remembers at most a thousand tools however many it sees', () => {
    const detector = createNonAdvancingDetector();
    for (let index = 0; index < 100_000; index++) {
      detector.observe(callOf(`search_${index}`, { query: 'x' }, { kind: 'search' }), noMatch('x'));
    }
    const snapshot = detector.snapshot() as { tools: unknown[] };
    expect(snapshot.tools.length).toBeLessThanOrEqual(1_000);
  });
});

describe('non-advancing: the same answer to rewordings', () => {
  const WORDINGS = [
    'late payment penalty',
    'penalty for paying rent late',
    'late fee for rent',
    'what happens if rent is paid late',
    'rent overdue charges',
    'fine for late rent payment',
    'late rent penalty clause',
    'overdue rent fee amount',
  ];
  const PASSAGES = JSON.stringify([
    {
      doc: 'lease.pdf',
      page: 3,
      text: 'The tenant shall pay rent monthly in advance on the first day of each month.',
    },
    {
      doc: 'lease.pdf',
      page: 7,
      text: "Either party may terminate this agreement with two months' written notice.",
    },
  ]);

  /** Eight wordings: the first answer starts the count, five alike after it trip the rule. */
  const SEVENTH_BLOCKED = ['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'block', 'block'];

  function ask(text: string, kind: 'search' | 'exec' = 'search') {
    return callOf('similarity_search', { chat_uuid: 'c0a8012e-5f1d', text }, { kind });
  }

  it('blocks the seventh wording of one question that brought back the same answer each time', () => {
    const detector = createNonAdvancingDetector();
    const steps = WORDINGS.map((text) => [ask(text), succeeded(PASSAGES)] as const);
    expect(verdicts(detector, steps)).toEqual(SEVENTH_BLOCKED);
  });

  it('tells the model to work with the answer it has', () => {
    const detector = createNonAdvancingDetector();
    for (const text of WORDINGS.slice(0, 6)) propose(detector, ask(text), succeeded(PASSAGES));
    const violation = detector.check(ask(WORDINGS[6] as string));
    expect(violation?.reason).toContain('the same answer to each wording of the question');
    expect(violation?.suggestion).toMatch(/work with what the answer holds/i);
    expect(violation?.evidence.count).toBe(5);
  });

  it('never counts questions that share no word, however alike their answers', () => {
    const detector = createNonAdvancingDetector();
    const topics = [
      'PIAS',
      'deepseek-chat',
      'SimulationEngine',
      'healthagent',
      'wearable',
      'java',
      'kotlin',
      'gradle',
    ];
    const steps = topics.map(
      (query) =>
        [
          callOf(
            'github_search',
            { repository_name: 'RehealthAI/rehealth-android', query },
            { kind: 'search' },
          ),
          succeeded('| Title | URL |\n|-------|-----|\n| Web Search Results | undefined |'),
        ] as const,
    );
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('starts over when a wording brings back something else', () => {
    const detector = createNonAdvancingDetector();
    const answers = [
      PASSAGES,
      PASSAGES,
      PASSAGES,
      PASSAGES,
      'Clause 12: a late fee of 5% applies.',
      PASSAGES,
      PASSAGES,
      PASSAGES,
    ];
    const steps = WORDINGS.map((text, index) => [ask(text), succeeded(answers[index] as string)] as const);
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('leaves one question asked again in the same words to the rules on identical calls', () => {
    const detector = createNonAdvancingDetector();
    const steps = WORDINGS.map(() => [ask('late payment penalty'), succeeded(PASSAGES)] as const);
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('counts questions only: a command answering alike is not asked again in other words', () => {
    const detector = createNonAdvancingDetector();
    const steps = WORDINGS.map((text) => [ask(text, 'exec'), succeeded(PASSAGES)] as const);
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('does not count reads of files that hold the same text, whose paths share words', () => {
    const detector = createNonAdvancingDetector();
    const packages = ['models', 'views', 'forms', 'admin', 'urls', 'signals', 'tasks', 'utils'];
    const steps = packages.map(
      (name) =>
        [
          callOf('Read', { file_path: `/srv/shop/orders/${name}/__init__.py` }, { kind: 'read' }),
          succeeded('     1\t# Generated package marker: keep this file.'),
        ] as const,
    );
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('counts a rewording answered alike and an empty answer toward one streak', () => {
    const detector = createNonAdvancingDetector();
    const nothing: ObservedOutcome = { ...succeeded('No results found'), empty: true };
    const steps = WORDINGS.map(
      (text, index) => [ask(text), index % 2 === 0 ? succeeded(PASSAGES) : nothing] as const,
    );
    expect(verdicts(detector, steps)).toEqual(SEVENTH_BLOCKED);
  });

  it('sees the next wording answer alike in a new process that reads back the session', () => {
    let detector = createNonAdvancingDetector();
    const seen = [];
    for (const text of WORDINGS) {
      seen.push(verdicts(detector, [[ask(text), succeeded(PASSAGES)]])[0]);
      const next = createNonAdvancingDetector();
      roundTrip(detector, next);
      detector = next;
    }
    expect(seen).toEqual(SEVENTH_BLOCKED);
  });

  it('saves the question behind a kept answer by hashes only', () => {
    const detector = createNonAdvancingDetector();
    propose(detector, ask(WORDINGS[1] as string), succeeded(PASSAGES));
    const saved = JSON.stringify(detector.snapshot());
    for (const word of ['payment', 'penalty', 'paying', 'c0a8012e']) expect(saved).not.toContain(word);
  });

  it('starts over after a change of the world: the same answer may be news then', () => {
    const detector = createNonAdvancingDetector();
    const seen = [];
    for (const [index, text] of WORDINGS.entries()) {
      if (index === 1) {
        const upload = callOf('upload_document', { name: 'lease-v2.pdf' }, { kind: 'create' });
        detector.observe(upload, succeeded('uploaded', { changedWorld: true }));
      }
      seen.push(verdicts(detector, [[ask(text), succeeded(PASSAGES)]])[0]);
    }
    // The answer after the upload is a first answer: five alike after it trip the rule.
    expect(seen).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'block']);
  });

  it('starts over with a new user message', () => {
    const detector = createNonAdvancingDetector();
    for (const text of WORDINGS.slice(0, 4)) propose(detector, ask(text), succeeded(PASSAGES));
    detector.reset('user');
    const steps = WORDINGS.slice(4).map((text) => [ask(text), succeeded(PASSAGES)] as const);
    expect(verdicts(detector, steps)).not.toContain('block');
  });

  it('keeps the last answers of at most 64 tools in its snapshot, however many it asks', () => {
    const detector = createNonAdvancingDetector();
    for (let index = 0; index < 1_000; index++) {
      propose(
        detector,
        callOf(`search_${index}`, { query: `topic ${index}` }, { kind: 'search' }),
        succeeded(PASSAGES),
      );
    }
    const snapshot = detector.snapshot() as { answers: unknown[] };
    expect(snapshot.answers.length).toBe(64);
  });

  it('reads the snapshots of the versions before it', () => {
    for (const version of [1, 2]) {
      const detector = createNonAdvancingDetector();
      detector.restore({
        version,
        tools: [
          ['tools_search', { count: 3, tripped: true, calls: ['tools_search {query: "smtp"}'], text: '' }],
        ],
      });
      expect(detector.check(search('mail'))?.severity).toBe('block');
    }
  });
});
