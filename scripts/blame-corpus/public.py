#!/usr/bin/env python3
"""The public half of the blame corpus: error texts quoted in public issue threads.

Other people's text stays out of the repository. What is committed is `public-sources.jsonl`: for
each entry its source (an issue or pull request URL), its labels (blame, deterministic, category,
the tool the agent called) and the half it belongs to, plus a fingerprint of the text (its length
and the SHA-256 of its first 32 characters and of the whole, after normalising line ends and
trailing spaces). No text.

    python3 public.py fetch  --manifest public-sources.jsonl --out DIR/public.jsonl [--token T]
        fetches each thread through the GitHub API (issue or pull request body and comments) and
        finds the text whose fingerprint matches; prints what it could not find.
    python3 public.py manifest --from TEXTS.jsonl [--from ...] --out public-sources.jsonl
        writes the manifest for labelled texts (run where the texts are, outside the repository).

Python 3 standard library only.
"""
import argparse
import hashlib
import json
import os
import re
import sys
import urllib.request

HEAD = 32


def normalise(text):
    return '\n'.join(line.rstrip() for line in text.replace('\r\n', '\n').split('\n'))


def sha(text):
    return hashlib.sha256(text.encode('utf-8')).hexdigest()


def fingerprint(text):
    t = normalise(text)
    return {'chars': len(t), 'head_sha256': sha(t[:HEAD]), 'sha256': sha(t)}


LABELS = ('tool', 'blame', 'deterministic', 'category', 'source', 'half')


def manifest(args):
    rows = []
    for path in args.sources:
        with open(path, encoding='utf-8') as f:
            for line in f:
                if not line.strip():
                    continue
                e = json.loads(line)
                row = {k: e[k] for k in LABELS if k in e}
                row.setdefault('half', 'design')
                row.update(fingerprint(e['text']))
                rows.append(row)
    with open(args.out, 'w', encoding='utf-8') as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + '\n')
    print(f'{len(rows)} sources', file=sys.stderr)


THREAD = re.compile(r'^https://github\.com/([^/]+)/([^/]+)/(?:issues|pull)/(\d+)')


def get(url, token):
    req = urllib.request.Request(url, headers={'Accept': 'application/vnd.github+json', 'User-Agent': 'blame-corpus'})
    if token:
        req.add_header('Authorization', f'Bearer {token}')
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read().decode('utf-8'))


def thread_text(url, token, cache):
    m = THREAD.match(url)
    if not m:
        return None
    key = m.groups()
    if key in cache:
        return cache[key]
    owner, repo, number = key
    api = f'https://api.github.com/repos/{owner}/{repo}/issues/{number}'
    parts = [get(api, token).get('body') or '']
    page = 1
    while True:
        comments = get(f'{api}/comments?per_page=100&page={page}', token)
        parts += [c.get('body') or '' for c in comments]
        if len(comments) < 100:
            break
        page += 1
    text = normalise('\n'.join(parts))
    cache[key] = text
    return text


def find(doc, row):
    n, head = row['chars'], row['head_sha256']
    first = None
    for i in range(0, max(0, len(doc) - n) + 1):
        if sha(doc[i:i + HEAD]) != head:
            continue
        if sha(doc[i:i + n]) == row['sha256']:
            return doc[i:i + n]
        first = first if first is not None else i
    return None


def fetch(args):
    token = args.token or os.environ.get('GITHUB_TOKEN')
    cache, out, missing = {}, [], []
    with open(args.manifest, encoding='utf-8') as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for row in rows:
        try:
            doc = thread_text(row['source'], token, cache)
        except Exception as err:  # noqa: BLE001 - report and go on
            missing.append((row['source'], f'fetch failed: {err}'))
            continue
        text = find(doc, row) if doc is not None else None
        if text is None:
            missing.append((row['source'], 'text not found in the thread'))
            continue
        entry = {'text': text, **{k: row[k] for k in LABELS if k in row}}
        out.append(entry)
    with open(args.out, 'w', encoding='utf-8') as f:
        for e in out:
            f.write(json.dumps(e, ensure_ascii=False) + '\n')
    print(f'{len(out)} of {len(rows)} texts found', file=sys.stderr)
    for source, why in missing:
        print(f'  {why}: {source}', file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='command', required=True)
    m = sub.add_parser('manifest')
    m.add_argument('--from', dest='sources', action='append', required=True)
    m.add_argument('--out', required=True)
    f = sub.add_parser('fetch')
    f.add_argument('--manifest', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'public-sources.jsonl'))
    f.add_argument('--out', required=True)
    f.add_argument('--token')
    args = ap.parse_args()
    manifest(args) if args.command == 'manifest' else fetch(args)


if __name__ == '__main__':
    main()
