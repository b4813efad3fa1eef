import { describe, expect, it } from 'vitest';
import { createIdenticalResultDetector } from '../../../src/core/detectors/identical-result.js';
import type { CallContext, ObservedOutcome } from '../../../src/core/detectors/types.js';
import {
  blockedElsewhere,
  callOf,
  failed,
  GARBAGE,
  policies,
  repeat,
  roundTrip,
  succeeded,
  verdicts,
} from './support.js';

const readData = callOf('read_file', { path: 'data.json' });
/** The call as the adapter reads a command that runs one script file and nothing else. */
function runsScript(call: CallContext): CallContext {
  return { ...call, facts: { ...call.facts, runsScript: true } };
}
/** The back-to-back rule alone, without the rules for queries that come back later. */
const backToBackOnly = policies({ detectors: { identicalResult: { revisitBlockAt: 0, rerunStreak: 0 } } });
const readDataBackToBack = callOf('read_file', { path: 'data.json' }, { policy: backToBackOnly });
const sameContent = succeeded('{"users": []}');

const writeNotes = [
  callOf(
    'write_file',
    { path: 'NOTES.md', content: '- users table is empty' },
    { kind: 'mutate', targets: ['NOTES.md'] },
  ),
  succeeded('Wrote NOTES.md', { changedWorld: true }),
] as const;

function grep(pattern: string) {
  return [callOf('grep', { pattern, path: 'src' }, { kind: 'search' }), succeeded('src/db.ts:12')] as const;
}

describe('identical-result', () => {
  it('warns on the third identical call in a row before it runs and blocks the fifth', () => {
    const detector = createIdenticalResultDetector();
    expect(verdicts(detector, repeat(5, [readData, sameContent]))).toEqual([
      'allow',
      'allow',
      'warn',
      'warn',
      'block',
    ]);
  });

  it('keeps blocking the call once it is blocked, since a blocked call does not run', () => {
    const detector = createIdenticalResultDetector();
    expect(verdicts(detector, repeat(8, [readData, sameContent])).slice(4)).toEqual([
      'block',
      'block',
      'block',
      'block',
    ]);
  });

  it('forgets the back-to-back streak once a call that did something comes in between', () => {
    const detector = createIdenticalResultDetector();
    expect(
      verdicts(detector, [
        [readDataBackToBack, sameContent],
        [readDataBackToBack, sameContent],
        [readDataBackToBack, sameContent],
        writeNotes,
        [readDataBackToBack, sameContent],
      ]),
    ).toEqual(['allow', 'allow', 'warn', 'allow', 'allow']);
  });

  it('forgets the back-to-back streak once other calls are proposed in between, even if they are blocked', () => {
    const detector = createIdenticalResultDetector();
    verdicts(detector, repeat(3, [readDataBackToBack, sameContent]));
    blockedElsewhere(detector, callOf('read_file', { path: 'data.jsn' }));
    blockedElsewhere(detector, callOf('read_file', { path: 'dat.json' }));
    expect(detector.check(readDataBackToBack)).toBeUndefined();
  });

  it('keeps a streak of two reads alike going across one search in between, since the search changed nothing', () => {
    const detector = createIdenticalResultDetector();
    expect(
      verdicts(detector, [
        [readDataBackToBack, sameContent],
        [readDataBackToBack, sameContent],
        grep('connectDatabase'),
        [readDataBackToBack, sameContent],
        [readDataBackToBack, sameContent],
        [readDataBackToBack, sameContent],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'warn', 'warn', 'block']);
  });

  it('keeps a streak of two reads alike going across an edit whose text to replace was not in the file', () => {
    const detector = createIdenticalResultDetector();
    const readHeader = callOf(
      'read_file',
      { file_path: 'src/components/Header.jsx' },
      { policy: backToBackOnly },
    );
    const header = succeeded("import { useState } from 'react';\nexport default function Header() {}");
    const edit = callOf(
      'replace',
      {
        file_path: 'src/components/Header.jsx',
        old_string: '<header className="top">',
        new_string: '<header>',
      },
      { kind: 'mutate', targets: ['src/components/Header.jsx'] },
    );
    const notThere = failed(
      'edit_failed',
      'agent_failure',
      'Failed to edit, 0 occurrences found for old_string (<header className="top">). No edits made.',
    );
    const missing: ObservedOutcome = {
      ...notThere,
      failure: {
        signature: 'edit_failed',
        blame: 'agent_failure',
        deterministic: true,
        meaning: 'content-missing',
        needle: '<header className="top">',
      },
    };
    expect(
      verdicts(detector, [
        [readHeader, header],
        [readHeader, header],
        [readHeader, header],
        [edit, missing],
        [readHeader, header],
        [readHeader, header],
      ]),
    ).toEqual(['allow', 'allow', 'warn', 'allow', 'warn', 'block']);
  });

  it('still blocks a state question asked again after an idle call, when its asks came after other calls', () => {
    const detector = createIdenticalResultDetector();
    const look = callOf('look', {}, { kind: 'other' });
    const goal = [callOf('goal', {}, { kind: 'read' }), succeeded('')] as const;
    const garden = succeeded("-= Garden =-\nYou're now in a garden. There is an exit to the west.");
    expect(
      verdicts(detector, [goal, [look, garden], [look, garden], goal, [look, garden], [look, garden]]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'warn', 'block']);
    expect(detector.check(look)?.rule).toBe('revisit');
  });

  it('leaves a read asked once between searches alone, since one ask starts no streak', () => {
    const detector = createIdenticalResultDetector();
    expect(
      verdicts(detector, [
        [readDataBackToBack, sameContent],
        grep('connectDatabase'),
        [readDataBackToBack, sameContent],
        grep('createPool'),
        [readDataBackToBack, sameContent],
        grep('poolSize'),
        [readDataBackToBack, sameContent],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('keeps the streak across calls in between when the tool allows them with withinCalls', () => {
    const detector = createIdenticalResultDetector();
    const policy = policies({ tools: { read_file: { detectors: { identicalResult: { withinCalls: 3 } } } } });
    const call = callOf('read_file', { path: 'data.json' }, { policy });
    expect(
      verdicts(detector, [
        [call, sameContent],
        grep('connectDatabase'),
        [call, sameContent],
        grep('createPool'),
        [call, sameContent],
        grep('poolSize'),
        [call, sameContent],
        grep('maxConnections'),
        [call, sameContent],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'warn', 'allow', 'warn', 'allow', 'block']);
  });

  it('remembers a call across as many distinct calls in between as a wide window allows', () => {
    const detector = createIdenticalResultDetector();
    const policy = policies({
      tools: { read_file: { detectors: { identicalResult: { withinCalls: 200 } } } },
    });
    const call = callOf('read_file', { path: 'data.json' }, { policy });
    const steps: (readonly [CallContext, ObservedOutcome])[] = [];
    for (let round = 0; round < 3; round++) {
      steps.push([call, sameContent]);
      for (let search = 0; search < 150; search++) steps.push(grep(`symbol${round}_${search}`));
    }
    steps.push([call, sameContent]);
    expect(verdicts(detector, steps).at(-1)).toBe('warn');
  });

  it('forgets the back-to-back streak once more calls than withinCalls allows come in between', () => {
    const detector = createIdenticalResultDetector();
    const policy = policies({
      tools: { read_file: { detectors: { identicalResult: { withinCalls: 3, revisitBlockAt: 0 } } } },
    });
    const call = callOf('read_file', { path: 'data.json' }, { policy });
    expect(
      verdicts(detector, [
        [call, sameContent],
        [call, sameContent],
        grep('connectDatabase'),
        grep('createPool'),
        grep('poolSize'),
        grep('poolTimeout'),
        [call, sameContent],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('says what was repeated, how often, and what came back', () => {
    const detector = createIdenticalResultDetector();
    verdicts(detector, repeat(3, [readData, sameContent]));
    const violation = detector.check(readData);
    expect(violation?.rule).toBe('identical-result');
    expect(violation?.reason).toContain('read_file {path: "data.json"}');
    expect(violation?.reason).toContain('3 times');
    expect(violation?.evidence).toMatchObject({ count: 3, calls: ['read_file {path: "data.json"}'] });
    expect(violation?.evidence.lastResult).toBe('{"users": []}');
  });

  it('suggests the alternatives configured for the tool', () => {
    const detector = createIdenticalResultDetector();
    const policy = policies({ tools: { read_file: { alternatives: ['grep', 'list_directory'] } } });
    const call = callOf('read_file', { path: 'data.json' }, { policy });
    verdicts(detector, repeat(3, [call, sameContent]));
    expect(detector.check(call)?.suggestion).toContain('grep, list_directory');
  });

  it('treats calls that differ only in a timestamp as the same call', () => {
    const detector = createIdenticalResultDetector();
    const at = (time: string) => callOf('get_logs', { service: 'api', since: time });
    const result = succeeded('no log lines');
    expect(
      verdicts(detector, [
        [at('2026-03-02T10:15:00Z'), result],
        [at('2026-03-02T10:15:07Z'), result],
        [at('2026-03-02T10:15:14Z'), result],
      ]),
    ).toEqual(['allow', 'allow', 'warn']);
  });

  it('restarts the count when the call returns something different', () => {
    const detector = createIdenticalResultDetector();
    expect(
      verdicts(detector, [
        [readData, sameContent],
        [readData, sameContent],
        [readData, succeeded('{"users": ["ada"]}')],
        [readData, succeeded('{"users": ["ada"]}')],
        [readData, succeeded('{"users": ["ada"]}')],
      ]),
    ).toEqual(['allow', 'allow', 'warn', 'allow', 'warn']);
  });

  it('restarts the count after the call fails, since a failure is a different result', () => {
    const detector = createIdenticalResultDetector();
    const denied = failed(
      'not_found',
      'agent_failure',
      "ENOENT: no such file or directory, open 'data.json'",
    );
    expect(
      verdicts(detector, [
        [readData, sameContent],
        [readData, sameContent],
        [readData, denied],
        [readData, sameContent],
      ]),
    ).toEqual(['allow', 'allow', 'warn', 'allow']);
  });

  it('treats the next call as a new question once another call changed the world', () => {
    const detector = createIdenticalResultDetector();
    const edit = callOf(
      'edit_file',
      { path: 'src/app.ts', old_string: 'a', new_string: 'b' },
      { kind: 'mutate' },
    );
    expect(
      verdicts(detector, [
        [readData, sameContent],
        [readData, sameContent],
        [edit, succeeded('edited src/app.ts', { changedWorld: true })],
        [readData, sameContent],
        [readData, sameContent],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('still counts a command whose only change to the world is its own', () => {
    const detector = createIdenticalResultDetector();
    const pull = callOf('bash', { command: 'git pull' }, { kind: 'exec' });
    const upToDate = succeeded('Already up to date.', { changedWorld: true });
    // A command of unknown effects that answered alike twice in a row: its third run is blocked.
    expect(verdicts(detector, repeat(5, [pull, upToDate]))).toEqual([
      'allow',
      'allow',
      'block',
      'block',
      'block',
    ]);
  });

  it('blocks the third run of a script that printed nothing each time, nothing changed in between', () => {
    const detector = createIdenticalResultDetector();
    const solve = runsScript(callOf('bash', { command: 'python3 solve.py' }, { kind: 'exec' }));
    // What a script of unknown effects did is unknown whether it prints or not: printing nothing
    // twice, with nothing else changed, it does the same the third time.
    const silent = succeeded('', { changedWorld: true });
    expect(verdicts(detector, repeat(4, [solve, silent]))).toEqual(['allow', 'allow', 'block', 'block']);
  });

  it('lets a script that printed nothing run again once a file was edited in between', () => {
    const detector = createIdenticalResultDetector();
    const solve = runsScript(callOf('bash', { command: 'python3 solve.py' }, { kind: 'exec' }));
    const silent = succeeded('', { changedWorld: true });
    const edit = callOf(
      'edit',
      { lines: '1:1', replacement: 'print(open("flag.txt.enc", "rb").read().hex())' },
      { kind: 'mutate', targets: ['solve.py'] },
    );
    expect(
      verdicts(detector, [
        [solve, silent],
        [solve, silent],
        [edit, succeeded('[File: solve.py (1 lines total)]', { changedWorld: true })],
        [solve, silent],
        [solve, silent],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('lets a one-line command of unknown effects that printed nothing run again, since it may have changed files', () => {
    const detector = createIdenticalResultDetector();
    const fix = callOf(
      'bash',
      { command: "find /testbed -name '*.sh' -exec chmod 755 {} +" },
      { kind: 'exec' },
    );
    const silent = succeeded('', { changedWorld: true });
    expect(verdicts(detector, repeat(4, [fix, silent]))).toEqual(['allow', 'allow', 'allow', 'allow']);
  });

  it('leaves poll tools to the poll detector', () => {
    const detector = createIdenticalResultDetector();
    const status = callOf('build_status', { build_id: 'b-1842' }, { kind: 'poll' });
    expect(verdicts(detector, repeat(6, [status, succeeded('{"state": "running"}')]))).not.toContain('warn');
  });

  it('starts over after a context compaction, since re-reading is then legitimate', () => {
    const detector = createIdenticalResultDetector();
    verdicts(detector, repeat(3, [readData, sameContent]));
    detector.compacted?.();
    expect(verdicts(detector, repeat(3, [readData, sameContent]))).toEqual(['allow', 'allow', 'warn']);
  });

  it('starts over on a new user message', () => {
    const detector = createIdenticalResultDetector();
    verdicts(detector, repeat(3, [readData, sameContent]));
    detector.reset('user');
    expect(detector.check(readData)).toBeUndefined();
  });

  it('applies thresholds overridden for the tool by exact name', () => {
    const detector = createIdenticalResultDetector();
    const policy = policies({
      tools: { read_file: { detectors: { identicalResult: { warnAt: 5, blockAt: 6 } } } },
    });
    const call = callOf('read_file', { path: 'data.json' }, { policy });
    expect(verdicts(detector, repeat(6, [call, sameContent]))).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
      'warn',
      'block',
    ]);
  });

  it('applies thresholds overridden for the tool by glob', () => {
    const detector = createIdenticalResultDetector();
    const policy = policies({
      tools: { 'mcp__fs__*': { detectors: { identicalResult: { warnAt: 2, blockAt: 3 } } } },
    });
    const call = callOf('mcp__fs__read_text_file', { path: 'data.json' }, { policy });
    expect(verdicts(detector, repeat(3, [call, sameContent]))).toEqual(['allow', 'warn', 'block']);
  });

  it('never fires for an exempt tool', () => {
    const detector = createIdenticalResultDetector();
    const policy = policies({ tools: { read_file: { exempt: true } } });
    const call = callOf('read_file', { path: 'data.json' }, { policy });
    expect(verdicts(detector, repeat(8, [call, sameContent]))).not.toContain('warn');
  });

  it('never fires when disabled', () => {
    const detector = createIdenticalResultDetector();
    const policy = policies({ detectors: { identicalResult: { enabled: false } } });
    const call = callOf('read_file', { path: 'data.json' }, { policy });
    expect(verdicts(detector, repeat(8, [call, sameContent]))).not.toContain('warn');
  });

  it('neither counts nor resets on a harness fault in the middle of a repetition', () => {
    const detector = createIdenticalResultDetector();
    const timeout = failed('timeout', 'harness_fault', 'Request timed out after 30s');
    expect(
      verdicts(detector, [
        [readData, sameContent],
        [readData, sameContent],
        [readData, timeout],
        [readData, sameContent],
        [readData, sameContent],
        [readData, sameContent],
      ]),
    ).toEqual(['allow', 'allow', 'warn', 'warn', 'warn', 'block']);
  });

  it('keeps its counts through a snapshot and restore', () => {
    const first = createIdenticalResultDetector();
    verdicts(first, repeat(4, [readData, sameContent]));
    const second = createIdenticalResultDetector();
    roundTrip(first, second);
    expect(second.check(readData)?.severity).toBe('block');
  });

  it('ignores a snapshot it cannot read and starts empty', () => {
    for (const garbage of GARBAGE) {
      const detector = createIdenticalResultDetector();
      verdicts(detector, repeat(3, [readData, sameContent]));
      detector.restore(garbage);
      expect(detector.check(readData)).toBeUndefined();
    }
  });

  it('remembers at most a thousand calls however many it sees', () => {
    const detector = createIdenticalResultDetector();
    for (let index = 0; index < 100_000; index++) {
      detector.observe(callOf('read_file', { path: `src/file-${index}.ts` }), succeeded(`content ${index}`));
    }
    const snapshot = detector.snapshot() as { calls: unknown[] };
    expect(snapshot.calls.length).toBeLessThanOrEqual(1_000);
  });
});

describe('queries that come back later', () => {
  /** A Codex shell reading one file of a planning workspace. */
  const cat = (path: string) =>
    [
      callOf(
        'shell',
        { command: `cat ${path}`, workdir: '/home/edouard/test-framework' },
        { kind: 'read', targets: [path] },
      ),
      succeeded(`# ${path}\n\nVersion: 1.0`),
    ] as const;

  const revisits = policies({ detectors: { identicalResult: { revisitBlockAt: 3 } } });
  const readConfig = callOf('read_file', { path: 'src/config.ts' }, { policy: revisits });
  const configContent = succeeded('export const port = 3000;');
  const readOther = (path: string) =>
    [callOf('read_file', { path }, { policy: revisits }), succeeded(`// ${path}`)] as const;

  it('leaves a file read again after other calls alone by default', () => {
    const detector = createIdenticalResultDetector();
    const plain = callOf('read_file', { path: 'src/config.ts' });
    const steps = [[plain, configContent], grep('port'), [plain, configContent], grep('host')] as const;
    verdicts(detector, [...steps]);
    expect(detector.check(plain)).toBeUndefined();
  });

  it('blocks the third read of a file, after other calls, that returned the same content each time, when asked to', () => {
    const detector = createIdenticalResultDetector();
    expect(
      verdicts(detector, [
        [readConfig, configContent],
        readOther('src/a.ts'),
        [readConfig, configContent],
        readOther('src/b.ts'),
        [readConfig, configContent],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'block']);
    expect(detector.check(readConfig)?.rule).toBe('revisit');
  });

  it('lets the read run again once the file it reads has changed', () => {
    const detector = createIdenticalResultDetector();
    const edit = callOf(
      'edit_file',
      { path: 'src/config.ts' },
      { kind: 'mutate', targets: ['src/config.ts'] },
    );
    const config = callOf(
      'read_file',
      { path: 'src/config.ts' },
      { targets: ['src/config.ts'], policy: revisits },
    );
    verdicts(detector, [
      [config, configContent],
      readOther('src/a.ts'),
      [config, configContent],
      [edit, succeeded('Edited src/config.ts', { changedWorld: true })],
    ]);
    expect(detector.check(config)).toBeUndefined();
  });

  it('lets the read run again once its file changed, however many files a later patch changed', () => {
    const config = callOf(
      'read_file',
      { path: 'src/config.ts' },
      { targets: ['src/config.ts'], policy: revisits },
    );
    const editConfig = callOf(
      'edit_file',
      { path: 'src/config.ts' },
      { kind: 'mutate', targets: ['src/config.ts'] },
    );
    // Around the number of changed paths the detector keeps track of.
    for (const files of [990, 999, 1_000, 1_001, 1_500]) {
      const targets = Array.from({ length: files }, (_, index) => `lib/file-${index}.ts`);
      const patch = callOf('apply_patch', { files }, { kind: 'mutate', targets });
      const detector = createIdenticalResultDetector();
      verdicts(detector, [
        [config, configContent],
        readOther('src/a.ts'),
        [config, configContent],
        [editConfig, succeeded('Edited src/config.ts', { changedWorld: true })],
        [patch, succeeded(`Patched ${files} files`, { changedWorld: true })],
      ]);
      expect(detector.check(config), `a patch of ${files} files`).toBeUndefined();
    }
  });

  it('keeps an answer about one file through a change of another', () => {
    const detector = createIdenticalResultDetector();
    const edit = callOf('edit_file', { path: 'src/b.ts' }, { kind: 'mutate', targets: ['src/b.ts'] });
    const config = callOf(
      'read_file',
      { path: 'src/config.ts' },
      { targets: ['src/config.ts'], policy: revisits },
    );
    verdicts(detector, [
      [config, configContent],
      [edit, succeeded('Edited src/b.ts', { changedWorld: true })],
      [config, configContent],
      readOther('src/a.ts'),
    ]);
    expect(detector.check(config)?.rule).toBe('revisit');
  });

  it('blocks the next re-run once two earlier queries of one tool in a row came back as before', () => {
    const detector = createIdenticalResultDetector();
    const search = (route: string) =>
      [
        callOf('search_direct_flight', { route }, { kind: 'search' }),
        succeeded(`[{"flight": "${route}"}]`),
      ] as const;
    expect(
      verdicts(detector, [
        search('MSP-EWR'),
        search('JFK-ATL'),
        search('ORD-PHL'),
        search('MSP-EWR'),
        search('JFK-ATL'),
        search('ORD-PHL'),
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'block']);
  });

  it('blocks the next re-run of an earlier read once two came back as before, though a first read came in between', () => {
    const detector = createIdenticalResultDetector();
    expect(
      verdicts(detector, [
        cat('prd/brief.md'),
        cat('prd/prd.md'),
        cat('planning/ux-design.md'),
        cat('prd/brief.md'),
        cat('prd/prd.md'),
        cat('planning/prd-validation-report.md'),
        cat('planning/ux-design.md'),
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'block']);
  });

  it('leaves files read again after the user wrote alone, though first reads came between them', () => {
    const detector = createIdenticalResultDetector();
    verdicts(detector, [cat('prd/brief.md'), cat('prd/prd.md'), cat('planning/ux-design.md')]);
    detector.reset('user');
    expect(
      verdicts(detector, [
        cat('prd/brief.md'),
        cat('prd/prd.md'),
        cat('planning/architecture.md'),
        cat('planning/epics.md'),
        cat('planning/ux-design.md'),
      ]),
    ).not.toContain('block');
  });

  it('blocks a third file read again with nothing done since, though first reads came between them', () => {
    const detector = createIdenticalResultDetector();
    expect(
      verdicts(detector, [
        cat('prd/brief.md'),
        cat('prd/prd.md'),
        cat('planning/ux-design.md'),
        cat('prd/brief.md'),
        cat('prd/prd.md'),
        cat('planning/architecture.md'),
        cat('planning/epics.md'),
        cat('planning/ux-design.md'),
      ]).at(-1),
    ).toBe('block');
  });

  it('forgets what it read when the context is compacted', () => {
    const detector = createIdenticalResultDetector();
    verdicts(detector, [[readConfig, configContent], readOther('src/a.ts'), [readConfig, configContent]]);
    detector.compacted?.();
    expect(detector.check(readConfig)).toBeUndefined();
  });
});

describe('re-runs of earlier queries', () => {
  it('does not count re-runs of different tools as one sweep', () => {
    const detector = createIdenticalResultDetector();
    const read = (path: string) => [callOf('read_file', { path }), succeeded(`// ${path}`)] as const;
    const search = [
      callOf('search_files', { pattern: 'TODO' }, { kind: 'search' }),
      succeeded('a.ts:1'),
    ] as const;
    const steps = [read('a.ts'), search, read('b.ts'), read('a.ts'), search, read('b.ts')] as const;
    expect(verdicts(detector, [...steps])).not.toContain('block');
  });
});

describe('state queries asked again while only failures came in between', () => {
  const hosts = [
    ['inventory', 'other'],
    ['mcp__textcraft__inventory', 'other'],
    ['get_inventory', 'read'],
    ['look', 'other'],
  ] as const;
  const inventoryAnswer = succeeded('Inventory: [poppy] (1)');
  const fetchItem = (item: string) =>
    [
      callOf('get', { input: `1 ${item}` }, { kind: 'other' }),
      failed('not_found', 'agent_failure', `Could not find ${item}`),
    ] as const;

  for (const [tool, kind] of hosts) {
    it(`blocks ${tool} asked a third time, answered the same, with only failing calls in between`, () => {
      const detector = createIdenticalResultDetector();
      const state = callOf(tool, {}, { kind });
      expect(
        verdicts(detector, [
          [state, inventoryAnswer],
          fetchItem('orange wool'),
          [state, inventoryAnswer],
          fetchItem('orange dye'),
          [state, inventoryAnswer],
        ]),
      ).toEqual(['allow', 'allow', 'allow', 'allow', 'block']);
      expect(detector.check(state)?.rule).toBe('revisit');
    });
  }

  it('lets the state query run again once another call succeeded in between', () => {
    const detector = createIdenticalResultDetector();
    const state = callOf('inventory', {}, { kind: 'other' });
    expect(
      verdicts(detector, [
        [state, inventoryAnswer],
        fetchItem('orange wool'),
        [state, inventoryAnswer],
        [callOf('get', { input: '2 bamboo' }, { kind: 'other' }), succeeded('Got 2 bamboo')],
        [state, inventoryAnswer],
        fetchItem('stick'),
        [state, inventoryAnswer],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('blocks a change naming nothing it changes, answered the same twice with only failures in between, on its third run', () => {
    const detector = createIdenticalResultDetector();
    const take = callOf('take', { input: 'shower' }, { kind: 'mutate' });
    const refusal = succeeded('Carrying your possessions into the shower is a bad idea.', {
      changedWorld: true,
    });
    const misread = (input: string) =>
      [
        callOf('command', { input }, { kind: 'other' }),
        failed('invalid_input', 'agent_failure', '[!: Verb error.]'),
      ] as const;
    expect(
      verdicts(detector, [
        [take, refusal],
        misread("You don't have any possessions Take shower"),
        [take, refusal],
        misread('You have no possessions to carry Take shower'),
        [take, refusal],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'block']);
    expect(detector.check(take)?.reason).toContain('would change nothing again');
  });

  it('lets a change naming nothing run again once another call succeeded in between', () => {
    const detector = createIdenticalResultDetector();
    const push = callOf('push', { input: 'button' }, { kind: 'mutate' });
    const clicked = succeeded('Click.', { changedWorld: true });
    const wait = [callOf('wait', {}, { kind: 'other' }), succeeded('Time passes. The lift hums.')] as const;
    expect(verdicts(detector, [[push, clicked], wait, [push, clicked], wait, [push, clicked]])).not.toContain(
      'block',
    );
  });

  it('leaves an edit of a named file, answered the same between failures, to the rules for edits', () => {
    const detector = createIdenticalResultDetector();
    const write = callOf(
      'write_file',
      { path: 'notes.md', content: '# Notes' },
      { kind: 'mutate', targets: ['notes.md'] },
    );
    const wrote = succeeded('Wrote 7 bytes to notes.md', { changedWorld: true });
    const run = [
      callOf('bash', { command: 'make docs' }, { kind: 'exec' }),
      failed('command_failed', 'agent_failure', "make: *** No rule to make target `docs'.  Stop."),
    ] as const;
    expect(verdicts(detector, [[write, wrote], run, [write, wrote], run, [write, wrote]])).not.toContain(
      'block',
    );
  });

  it('leaves a file read again between failing edits alone, since a read names what it reads', () => {
    const detector = createIdenticalResultDetector();
    const open = callOf('open', { path: 'src/app.py' }, { kind: 'read', targets: ['src/app.py'] });
    const edit = [
      callOf(
        'edit',
        { lines: '12:14', replacement: 'return x' },
        { kind: 'mutate', targets: ['src/app.py'] },
      ),
      failed('syntax_error', 'agent_failure', 'Your proposed edit has introduced new syntax error(s)'),
    ] as const;
    const content = succeeded('def f(x):\n    return x');
    expect(verdicts(detector, [[open, content], edit, [open, content], edit, [open, content]])).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
      'allow',
    ]);
  });

  it('leaves a call that answers nothing alone, since a blank answer says nothing of a state', () => {
    const detector = createIdenticalResultDetector();
    const think = callOf('think', { thought: 'The payment methods must add up to $833.' }, { kind: 'other' });
    const pay = [
      callOf(
        'update_reservation_flights',
        { reservation_id: 'Z7GOZK', payment_id: 'gift_card_5790' },
        { kind: 'api' },
      ),
      failed('invalid_input', 'agent_failure', 'Error: gift card balance is not enough'),
    ] as const;
    expect(
      verdicts(detector, [[think, succeeded('')], pay, [think, succeeded('')], pay, [think, succeeded('')]]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('leaves a command run again between failing calls alone', () => {
    const detector = createIdenticalResultDetector();
    const ls = callOf('bash', { command: 'ls' }, { kind: 'exec' });
    const listing = succeeded('level1.flag.txt.enc level1.py');
    expect(
      verdicts(detector, [[ls, listing], fetchItem('key'), [ls, listing], fetchItem('flag'), [ls, listing]]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
  });
});

describe('questions put to something outside the machine', () => {
  /** A health check of a deployment, as the adapter reads a shell line that only asks a server. */
  const healthAt = (now: number) => {
    const call = callOf(
      'shell',
      { command: 'curl -s https://staging.acme.dev/healthz' },
      { kind: 'exec', now },
    );
    return { ...call, facts: { ...call.facts, asksOutside: true } };
  };
  const deploying = succeeded('{"status":"deploying"}');
  const everyMinuteAndAHalf = (count: number) =>
    Array.from({ length: count }, (_, index) => [healthAt(index * 90_000), deploying] as const);

  it('lets the same answer come back to a question asked again minutes later, as often as it is', () => {
    const detector = createIdenticalResultDetector();
    expect(verdicts(detector, everyMinuteAndAHalf(6))).toEqual(Array(6).fill('allow'));
  });

  it('still blocks the same question asked again seconds later, its answer unchanged', () => {
    const detector = createIdenticalResultDetector();
    const seconds = Array.from({ length: 4 }, (_, index) => [healthAt(index * 3_000), deploying] as const);
    expect(verdicts(detector, seconds)).toEqual(['allow', 'allow', 'block', 'block']);
  });

  it('blocks the quick ask that follows a paced one, since the answer had no time to change', () => {
    const detector = createIdenticalResultDetector();
    const paced = everyMinuteAndAHalf(3);
    const quick = [healthAt(180_000 + 2_000), deploying] as const;
    const quicker = [healthAt(180_000 + 4_000), deploying] as const;
    expect(verdicts(detector, [...paced, quick, quicker])).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
      'block',
    ]);
  });

  it('keeps blocking a file read back minutes later, whose answer only a change can alter', () => {
    const detector = createIdenticalResultDetector();
    const reads = Array.from(
      { length: 5 },
      (_, index) =>
        [callOf('read_file', { path: 'data.json' }, { now: index * 300_000 }), sameContent] as const,
    );
    expect(verdicts(detector, reads)).toContain('block');
  });

  it('keeps when each answer came through a snapshot, so a restart does not make a paced ask look quick', () => {
    const detector = createIdenticalResultDetector();
    verdicts(detector, [
      [healthAt(0), deploying],
      [healthAt(3_000), deploying],
    ]);
    const saved = JSON.stringify(detector.snapshot());
    const later = createIdenticalResultDetector();
    later.restore(JSON.parse(saved));
    expect(verdicts(later, [[healthAt(93_000), deploying]])).toEqual(['allow']);
    const soon = createIdenticalResultDetector();
    soon.restore(JSON.parse(saved));
    expect(verdicts(soon, [[healthAt(6_000), deploying]])).toEqual(['block']);
  });
});
