#!/usr/bin/env python3
"""Joins the gathered and fetched texts into the two halves of the blame corpus.

    python3 build.py --out DIR FILE.jsonl [FILE.jsonl ...]

Each entry goes to DIR/design.jsonl or DIR/validation.jsonl by its `half` (entries without one are
design). The split is by source: every entry of one local command set, or of one public thread,
is in one half. The rules are designed on the design half only; the validation half is run to
measure. Score either half with the calibration scorer:

    python3 score_blame.py CHECKOUT --corpus DIR/validation.jsonl
"""
import argparse
import collections
import json
import os

FIELDS = ('text', 'tool', 'args', 'exitCode', 'blame', 'deterministic', 'category', 'source')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('inputs', nargs='+')
    args = ap.parse_args()
    halves = collections.defaultdict(list)
    seen = set()
    for path in args.inputs:
        with open(path, encoding='utf-8') as f:
            for line in f:
                if not line.strip():
                    continue
                e = json.loads(line)
                key = (e['text'], e.get('tool'), e['source'])
                if key in seen:
                    continue
                seen.add(key)
                halves[e.get('half', 'design')].append({k: e[k] for k in FIELDS if k in e})
    os.makedirs(args.out, exist_ok=True)
    for half in ('design', 'validation'):
        entries = halves[half]
        with open(os.path.join(args.out, f'{half}.jsonl'), 'w', encoding='utf-8') as f:
            for e in entries:
                f.write(json.dumps(e, ensure_ascii=False) + '\n')
        labels = collections.Counter(e['blame'] for e in entries)
        sources = len({e['source'].split('`')[1].split()[0] if e['source'].startswith('local:`') else e['source'] for e in entries})
        print(f'{half}: {len(entries)} entries from {sources} sources, ' + ', '.join(f'{n} {k}' for k, n in sorted(labels.items())))


if __name__ == '__main__':
    main()
