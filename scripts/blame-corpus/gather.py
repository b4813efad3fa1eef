#!/usr/bin/env python3
"""Regenerates local.jsonl: real error texts of real tools run on this machine, labelled by
the rules summarised in README.md (those of the project's held-out calibration corpus).

    sudo python3 gather.py [--out local.jsonl] [--only SUBSTRING]

Needs root (a tiny tmpfs for disk-full, runuser for permission errors, a throw-away PostgreSQL
cluster run as `postgres`), Debian 12's tools (git, npm, node, python3, pip, curl, wget, sqlite3,
psql, gcc, javac, cargo, terraform, kubectl, aws, gcloud, docker client without daemon) and the
@modelcontextprotocol reference servers from narrowing's node_modules. No internet is needed: the
network failures are real failures of real clients against loopback servers that refuse, reset,
hang, answer with an HTTP error status, or speak TLS with an untrusted certificate, and against
names that cannot resolve (`nonexistent.invalid`; on this machine every public name fails to
resolve except the npm registry).

Every case carries its label, written from the rules and the command's known cause before the
product was run on it. Texts are kept verbatim, except: ANSI colours and npm's machine-specific
"Unknown user config" warning are stripped, and outputs over 3000 characters are cut in the middle
at a line boundary and marked `[…]`.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = '/tmp/blame-corpus'
W = f'{ROOT}/w'  # a git repository with files: the agent's workspace
PLAIN = f'{ROOT}/plain'  # an empty directory that is no repository
FULL = f'{ROOT}/full'  # a full 256 KiB tmpfs
RO = f'{ROOT}/ro'  # a read-only tmpfs
LOCKED = f'{ROOT}/locked'  # a workspace owned by root that `nobody` may read but not write
PG_SOCK = f'{ROOT}/pgsock'
JS = f'{ROOT}/js'  # sees narrowing's node_modules (vitest, typescript); nothing is installed here
NODE_MODULES = os.path.abspath(os.path.join(HERE, '../../node_modules'))

SHELL_TOOLS = ['Bash', 'run_shell_command', 'shell', 'execute_command', 'execute_bash', 'run_terminal_cmd']
LANGS = ['de', 'fr', 'es', 'it', 'pt_BR', 'ru', 'zh_CN', 'ja']

CASES = []


def case(blame, det, cat, cmd, tool=None, lang=None, user=None, cwd=None, note=None, expect_fail=True):
    CASES.append(dict(blame=blame, det=det, cat=cat, cmd=cmd, tool=tool, lang=lang, user=user,
                      cwd=cwd or W, note=note, expect_fail=expect_fail))


def agent(cat, cmd, **kw):
    case('agent_failure', True, cat, cmd, **kw)


def harness(cat, cmd, det=False, **kw):
    case('harness_fault', det, cat, cmd, **kw)


def unknown(cat, cmd, **kw):
    case('unknown', False, cat, cmd, **kw)


def ambiguous(cat, cmd, det=True, **kw):
    case('ambiguous', det, cat, cmd, **kw)


def localized(fn, cat, cmd, langs=LANGS, **kw):
    for lang in langs:
        fn(cat, cmd, lang=lang, **kw)


# ---------------------------------------------------------------------------------------------
# Loopback servers

def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


class StatusHandler(http.server.BaseHTTPRequestHandler):
    """`/NNN/...` answers with HTTP status NNN and Python's standard error page."""

    def log_message(self, *args):
        pass

    def answer(self):
        match = re.match(r'^/(\d{3})(?:/|$)', self.path)
        code = int(match.group(1)) if match else 200
        if code == 200:
            body = b'{"ok":true}'
            self.send_response(200)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        headers = {}
        if code == 401:
            headers['WWW-Authenticate'] = 'Basic realm="git"'
        if code in (429, 503):
            headers['Retry-After'] = '30'
        self.send_response(code)
        page = (self.error_message_format % {'code': code, 'message': self.responses.get(code, ('',))[0],
                                             'explain': self.responses.get(code, ('', ''))[1]}).encode()
        self.send_header('Content-Type', 'text/html;charset=utf-8')
        self.send_header('Content-Length', str(len(page)))
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(page)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = answer


def serve_http(port, tls_context=None):
    server = http.server.ThreadingHTTPServer(('127.0.0.1', port), StatusHandler)
    if tls_context:
        server.socket = tls_context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def serve_raw(port, behaviour):
    """hang: accept and never answer; reset: accept and send RST; close: read and close silently."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(('127.0.0.1', port))
    listener.listen(64)
    held = []

    def loop():
        while True:
            conn, _ = listener.accept()
            if behaviour == 'hang':
                held.append(conn)
            elif behaviour == 'reset':
                try:
                    conn.recv(1024)
                except OSError:
                    pass
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
                conn.close()
            else:
                try:
                    conn.recv(65536)
                except OSError:
                    pass
                conn.close()

    threading.Thread(target=loop, daemon=True).start()


P = {}


def start_servers():
    P['http'] = free_port()
    serve_http(P['http'])
    for name in ('hang', 'reset', 'close'):
        P[name] = free_port()
        serve_raw(P[name], name)
    P['closed'] = free_port()  # nothing listens here
    # TLS with a self-signed certificate for 127.0.0.1, and one for another host name.
    certs = f'{ROOT}/certs'
    os.makedirs(certs, exist_ok=True)
    for name, cn, san in (('self', '127.0.0.1', 'IP:127.0.0.1'), ('other', 'other.test', 'DNS:other.test')):
        subprocess.run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30',
                        '-keyout', f'{certs}/{name}.key', '-out', f'{certs}/{name}.pem',
                        '-subj', f'/CN={cn}', '-addext', f'subjectAltName={san}'],
                       check=True, capture_output=True)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(f'{certs}/{name}.pem', f'{certs}/{name}.key')
        P[f'tls_{name}'] = free_port()
        serve_http(P[f'tls_{name}'], ctx)
    P['other_ca'] = f'{certs}/other.pem'
    P['redis'] = free_port()
    P['redis_process'] = subprocess.Popen(['redis-server', '--port', str(P['redis']), '--bind', '127.0.0.1', '--save', '',
                      '--appendonly', 'no', '--requirepass', 'right-password', '--daemonize', 'no'],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)


# ---------------------------------------------------------------------------------------------
# Fixtures

def sh(cmd, **kw):
    return subprocess.run(cmd, shell=True, check=True, capture_output=True, text=True, **kw)


def setup_fixtures():
    for path in (FULL, RO):
        subprocess.run(['umount', path], capture_output=True)
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(W)
    os.makedirs(PLAIN)
    os.makedirs(JS)
    os.chmod(ROOT, 0o755)
    sh(f'''
cd {W}
git init -q -b main . && git config user.email dev@example.com && git config user.name dev
printf 'hello\\n' > a.txt
printf '{{"name": "demo", "port": 8080}}\\n' > config.json
mkdir -p src sub tests
printf 'def add(a, b):\\n    return a + b\\n' > src/calc.py
cat > package.json <<'EOF'
{{ "name": "demo", "version": "1.0.0", "scripts": {{ "build": "node build.js", "lint": "exit 2" }} }}
EOF
printf 'console.log("built")\\n' > build.js
printf 'all:\\n\\techo ok\\n' > Makefile
git add -A && git commit -qm init
git branch feature
''')
    # A bare remote one commit ahead, for rejected pushes.
    sh(f'''
git clone -q --bare {W} {ROOT}/remote.git
git clone -q {ROOT}/remote.git {ROOT}/other && cd {ROOT}/other
git config user.email o@example.com && git config user.name o
echo other > other.txt && git add . && git commit -qm other && git push -q origin main
cd {W} && git remote add origin {ROOT}/remote.git
''')
    # A branch whose change to a.txt conflicts with main's.
    sh(f'''
cd {W} && git checkout -q -b clash && printf 'clash\\n' > a.txt && git commit -qam clash
git checkout -q main && printf 'main side\\n' > a.txt && git commit -qam main-side
''')
    os.makedirs(FULL)
    sh(f'mount -t tmpfs -o size=256k tmpfs {FULL} && dd if=/dev/zero of={FULL}/filler bs=4k count=200 2>/dev/null || true')
    sh(f'printf "x\\n" > {FULL}/small.txt || true')
    os.makedirs(RO)
    sh(f'mount -t tmpfs -o size=64k tmpfs {RO} && printf "x\\n" > {RO}/notes.txt && mount -o remount,ro {RO}')
    os.makedirs(LOCKED)
    sh(f'printf "secret\\n" > {LOCKED}/data.txt && chmod 600 {LOCKED}/data.txt && chmod 755 {LOCKED}')
    sh(f'cd {LOCKED} && git init -q . && git config user.email r@example.com && git config user.name r && git add -A && git commit -qm r')
    # A script without the executable bit, a directory named like a file, a tiny database.
    sh(f'printf "#!/bin/sh\\necho hi\\n" > {W}/run.sh && chmod 644 {W}/run.sh')
    sh(f'''sqlite3 {W}/app.db "create table users(id integer primary key, email text unique not null, name text); insert into users(email,name) values('a@example.com','A');"''')
    setup_postgres()


def setup_postgres():
    data = f'{ROOT}/pgdata'
    os.makedirs(PG_SOCK)
    shutil.chown(PG_SOCK, 'postgres', 'postgres')
    os.makedirs(data)
    shutil.chown(data, 'postgres', 'postgres')
    pg = '/usr/lib/postgresql/15/bin'
    sh(f"runuser -u postgres -- {pg}/initdb -D {data} -A trust >/dev/null")
    with open(f'{data}/postgresql.conf', 'a') as f:
        f.write(f"unix_socket_directories = '{PG_SOCK}'\nport = 55432\nlisten_addresses = '127.0.0.1'\nmax_connections = 8\n")
    with open(f'{data}/pg_hba.conf', 'w') as f:
        f.write('local all all trust\nhost all app 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\n')
    sh(f"runuser -u postgres -- {pg}/pg_ctl -D {data} -l {data}/pg.log -w start >/dev/null")
    psql = f'psql -h {PG_SOCK} -p 55432 -U postgres -v ON_ERROR_STOP=1 -q'
    sh(f'''{psql} -c "create database shop" && {psql} -d shop -c "
create table customers(id serial primary key, email text unique not null, name text);
create table orders(id serial primary key, customer_id int not null references customers(id), total numeric);
insert into customers(email, name) values ('a@example.com', 'A');
create role app login password 'right-password';
create role reader login; grant connect on database shop to reader;"''')


def teardown():
    if 'redis_process' in P:
        P['redis_process'].terminate()
        P['redis_process'].wait(timeout=10)
    subprocess.run(f"runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D {ROOT}/pgdata -m immediate stop",
                   shell=True, capture_output=True)
    for path in (FULL, RO):
        subprocess.run(['umount', path], capture_output=True)


# ---------------------------------------------------------------------------------------------
# The cases. Labels follow RULES.md; the category names the family.

def cases():
    H = P['http']
    U = f'http://127.0.0.1:{H}'
    CLOSED = P['closed']
    HANG = P['hang']
    RESET = P['reset']
    CLOSE = P['close']
    TLS = P['tls_self']
    TLS_OTHER = P['tls_other']
    PSQL = f'psql -h {PG_SOCK} -p 55432 -U postgres -d shop -v ON_ERROR_STOP=1 -X -q'
    PSQL_TCP = 'psql -h 127.0.0.1 -p 55432 -d shop -X -q'
    PY = 'python3 -c'
    AWSENV = 'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
    NODE = 'node -e'

    # -- rule 8: missing files and directories (coreutils, interpreters, tools) --------------
    for cmd in ['cat nothere.txt', 'ls nothere/', 'rm notes.md', 'cp settings.yaml backup/', 'mv draft.txt final.txt',
                'head -n 5 server.log', 'tail -f logs/app.log', 'chmod +x scripts/release.sh', 'touch nodir/a.txt',
                'mkdir newdir/sub', 'grep -n TODO src/main.py', 'wc -l data.csv', 'stat build/output.bin',
                'diff a.txt b.txt', 'sort users.txt', 'ln -s a.txt links/a', 'du -sh vendor',
                'find lib -name "*.py"', 'sed -n 1,5p README.md', 'cd frontend && npm install', 'source .venv/bin/activate',
                'tar -xzf release.tar.gz', 'unzip bundle.zip', 'truncate -s 0 logs/x.log', 'chown root missing.txt',
                'md5sum dist/app.js', 'cat src/calc.py tests/test_calc.py']:
        agent('not-found-file', cmd)
    for cmd in ['cat nothere.txt', 'rm notes.md', 'cp settings.yaml backup/', 'ls nothere/', 'mkdir newdir/sub',
                'tail -n 20 logs/app.log']:
        localized(agent, 'not-found-file', cmd, langs=LANGS[:4] if cmd != 'cat nothere.txt' else LANGS)
    for cmd in ['python3 manage.py migrate', 'python3 scripts/nothere.py', 'node server.js', 'node dist/index.js',
                'bash scripts/setup.sh', './deploy.sh', 'perl tools/gen.pl', 'java Main', 'jq .name settings.json',
                'pip install -r requirements-dev.txt', 'npm --prefix web run build', 'make -f build.mk',
                'terraform -chdir=infra plan', 'git show HEAD:src/missing.py', 'gcc -o app main.c',
                'javac src/Main.java', 'rustc src/main.rs', 'sqlite3 data/none/app.db "select 1"',
                f'{PY} "open(\'settings.toml\').read()"', f'{NODE} "require(\'fs\').readFileSync(\'settings.toml\')"',
                f'{NODE} "require(\'fs\').promises.readFile(\'data/input.json\').catch(e => {{ console.error(e); process.exit(1) }})"',
                'kubectl apply -f k8s/deployment.yaml', 'curl -sS -T upload.bin ' + U + '/200/x',
                'aws s3 cp report.pdf s3://my-bucket/', 'xargs -a list.txt echo',
                'git apply fix.patch', 'python3 -m pytest tests/test_missing.py',
                'cat < input.txt', 'diff -u old/ new/', f'{PSQL} -f migrations/001.sql']:
        agent('not-found-file', cmd)
    agent('not-found-file', 'git add docs/guide.md')
    agent('not-found-file', 'git rm old.txt')
    agent('not-found-file', 'git checkout -- src/removed.py')
    agent('not-found-file', 'git mv a.txt docs/a.txt')
    localized(agent, 'not-found-file', 'git add docs/guide.md', langs=['de', 'fr', 'es', 'zh_CN'])

    # -- rule 8: missing modules and packages --------------------------------------------------
    for cmd in [f'{PY} "import yamlx"', f'{PY} "from flask_sqlalchemy2 import SQLAlchemy"', 'python3 -m nothere_tool',
                f'{NODE} "require(\'expresss\')"', 'node --input-type=module -e "import chalk from \'chalkk\'"',
                f'{NODE} "require(\'./lib/util\')"', 'python3 -c "import src.nothere"',
                'npm view this-package-does-not-exist-zz9 version', 'npm install this-package-does-not-exist-zz9',
                'npm install left-pad@99.0.0', 'npm view left-pad@^99 version --json', 'npx --yes this-cli-does-not-exist-zz9',
                'pip install --no-index nothere-pkg-zz9', 'pip install --no-index "requests==99.0"',
                'pip show nothere-pkg-zz9', 'npm explain left-pad']:
        agent('not-found-module', cmd)

    # -- rule 8: unknown refs, branches, remotes, ids ------------------------------------------
    for cmd in ['git checkout nobranch', 'git switch release-2.0', 'git show deadbeef', 'git rev-parse v9.9.9',
                'git merge topic/nothere', 'git branch -d nobranch', 'git diff main..nothere', 'git log nothere --oneline',
                'git cherry-pick 0123456789abcdef0123456789abcdef01234567', 'git tag -d v0.0.0', 'git stash pop',
                'git stash show stash@{3}', 'git remote remove upstream', 'git push upstream main', 'git fetch upstream',
                'git reset --hard origin/nothere', 'git rebase nothere', 'git blame nothere.py', 'git worktree remove ../wt-x',
                'git submodule update --init vendor/lib', 'git branch -m nothere renamed', 'git revert cafebabe',
                'git push origin release/nothere']:
        agent('not-found-ref', cmd)
    localized(agent, 'not-found-ref', 'git checkout nobranch', langs=['de', 'fr', 'es', 'zh_CN', 'it', 'ru'])
    localized(agent, 'not-found-ref', 'git push origin release/nothere', langs=['de', 'fr', 'es', 'zh_CN', 'it', 'ru'])
    agent('not-found-id', f'{PSQL_TCP} -U postgres -d nothere_db -c "select 1"'.replace('-d shop ', ''))
    agent('not-found-id', f'{PY} "import json; json.load(open(\'config.json\'))[\'database\']"')

    # -- rule 9: usage errors, unknown flags and subcommands, bad arguments --------------------
    for cmd in ['ls --colour=sometimes', 'git status --shortt', 'grep --recursivv TODO .', 'curl --retryy 3 ' + U,
                'python3 --versoin', 'node --inspekt app.js', 'tar --extrakt -f a.tar', 'rm --recursivee tmp',
                'git commti -m "fix"', 'git pul', 'pip instal requests',
                'cargo biuld', 'terraform plann', 'kubectl gett pods', 'docker psx', 'gcloud compute instancez list',
                'aws s4 ls', 'jq --raww .', 'sqlite3 -nope app.db', 'psql --hostt=localhost', 'head -n abc a.txt',
                'date -d "next blursday"', 'sleep 5x', 'kill -9 notapid', 'chmod 999 a.txt', 'git log --since',
                'git commit', 'git clone', 'mkdir', 'cp a.txt', 'ln', 'tar',
                'python3 -m venv', 'git config --get', 'gcc', 'cargo new', 'git branch -D', 'kubectl logs',
                'terraform apply -var', 'git checkout -b', 'make -j x',
                'sort -k', 'cut -f1 -d', 'find . -name', 'xargs -n', 'wc --lines=3 a.txt', 'date -d',
                'git reset --hard HEAD~99', 'printf "%d" abc', 'seq 1 x', 'test 1 -gt x',
                'python3 -m http.server notaport', 'npm version wat']:
        agent('bad-usage', cmd)
    localized(agent, 'bad-usage', 'ls --colour=sometimes', langs=['de', 'fr', 'es', 'ja'])
    localized(agent, 'bad-usage', 'git commti -m "fix"', langs=['de', 'fr', 'zh_CN'])
    agent('npm-missing-script', 'npm run deploy')
    agent('npm-missing-script', 'npm run start')
    agent('npm-missing-script', 'npm test')
    agent('npm-missing-script', 'npm run dev --workspace web')

    # -- commands that do not exist: typos (agent) and tools that may be absent (ambiguous) ----
    for cmd in ['gut status', 'pyhton3 app.py', 'nmp install', 'ehco hello', 'sl', 'cd.. && ls', 'grpe -r x .',
                'claer', 'pytohn -m pytest', 'gerp TODO a.txt']:
        agent('command-not-found', cmd)
    localized(agent, 'command-not-found', 'gut status', langs=['de', 'fr', 'es', 'zh_CN', 'ja'])
    for cmd in ['yarn install', 'pnpm build', 'go test ./...', 'rg TODO', 'bun run dev', 'deno task dev',
                'gh pr list', 'poetry install', 'uv sync']:
        ambiguous('command-not-found', cmd)

    # -- rule 10: syntax, compile, type, lint, runtime errors of the agent's code --------------
    for cmd in [f'{NODE} "const total = ;"', f'{NODE} "function f( {{ return 1 }}"', f'{NODE} "JSON.parse(\'{{bad json}}\')"',
                f'{PY} "def f(:\n  pass"', f'{PY} "if True:\nprint(1)"', f'{PY} "import json; json.loads(\'{{\\"a\\": }}\')"',
                'bash -c "if then fi"', 'bash -c "echo $((1 +))"', 'sh -c "for i in; do"', "jq '.[' config.json",
                "jq '.name | nope' config.json", 'sqlite3 app.db "selec * from users"', 'sqlite3 app.db "select * from users where"',
                f'{PSQL} -c "selec 1"', f'{PSQL} -c "select * from customers where"', "awk '{print $1' a.txt",
                "sed -e 's/a/b' a.txt", 'perl -e \'print "x\'', 'python3 -c "x = [1, 2"', f'{NODE} "let x = {{a: 1,, b: 2}}"',
                f'{PY} "import yaml; yaml.safe_load(\'a: [1, 2\')"', 'terraform -chdir=tf-bad validate',
                'node --check broken.js', 'python3 -m py_compile broken.py', 'git config --file bad.gitconfig --list',
                'npm install --dry-run --prefix badpkg']:
        agent('syntax', cmd)
    for cmd in ['gcc -c bad.c -o /dev/null', 'javac Bad.java', 'rustc --edition 2021 bad.rs -o /tmp/bad-rs',
                'cargo build --manifest-path crate/Cargo.toml --offline']:
        agent('compile-error', cmd)
    for cmd in ['npx tsc --noEmit -p tsbad', 'npx tsc --noEmit --strict types.ts', 'npx tsc -p tsconfig.app.json', 'npx tsc --noEmitt']:
        agent('compile-error' if 'bad' in cmd or 'types' in cmd else 'bad-usage', cmd, cwd=JS)
    for cmd in [f'{NODE} "const o = undefined; o.name"', f'{NODE} "undefinedFunction()"', f'{NODE} "null.length"',
                f'{NODE} "[].reduce((a, b) => a + b)"', f'{NODE} "new Array(-1)"', f'{NODE} "JSON.stringify(BigInt(1))"',
                f'{PY} "d = {{}}; d[\'key\']"', f'{PY} "[1, 2][5]"', f'{PY} "1 / 0"', f'{PY} "None.strip()"', f'{PY} "undefined_name"',
                f'{PY} "int(\'12px\')"', f'{PY} "\'a\' + 1"', f'{PY} "import os; os.environ[\'API_URL\']"',
                f'{PY} "def f(): return f()\nf()"', f'{PY} "assert 1 == 2, \'totals differ\'"',
                f'{PY} "import datetime; datetime.date(2024, 2, 30)"', f'{PY} "from src.calc import add; add(1)"',
                'java -cp javabin Npe', 'java -cp javabin Oob', 'cargo run --quiet --manifest-path panic/Cargo.toml --offline',
                f'{PY} "import re; re.compile(\'(\')"', f'{NODE} "new RegExp(\'(\')"', f'{NODE} "decodeURIComponent(\'%\')"',
                f'{NODE} "require(\'assert\').strictEqual(1, 2)"', f'{NODE} "process.chdir(\'nothere\')"']:
        agent('runtime-exception', cmd)
    # Rule 1: environmental words quoted from the agent's own input, judged by the error kind.
    for cmd in [f'{PY} "int(\'503 Service Unavailable\')"', f'{PY} "d = {{}}; d[\'ECONNREFUSED\']"',
                f'{NODE} "const e = {{}}; e.ETIMEDOUT.code"', 'cat logs/connection-refused.log',
                f'{PY} "open(\'rate_limit.py\')"', 'git checkout fix/ETIMEDOUT-retry', 'ls network_timeout/',
                f'{PY} "float(\'timeout\')"', f'{NODE} "JSON.parse(\'Service Unavailable\')"',
                f'{PY} "import json; json.loads(\'429 Too Many Requests\')"',
                'python3 tests/test_rate_limit.py', f'{NODE} "require(\'./socket-hang-up\')"',
                'git show HEAD:docs/quota-exceeded.md', f'{PY} "[].index(\'timed out\')"',
                f'{NODE} "new URL(\'fetch failed\')"', 'npm run test:network-timeout', 'sqlite3 app.db "select timeout from users"',
                f'{PSQL} -c "select rate_limit from customers"', f'{PSQL} -c "select * from network_errors"']:
        agent('env-words-quoted', cmd)

    # -- rule 10: failing tests ----------------------------------------------------------------
    for cmd in ['node --test nt/', 'python3 -m pytest -q pyt', 'python3 -m unittest discover -s ut -q',
                'cargo test --quiet --manifest-path crate-test/Cargo.toml --offline', 'python3 -m pytest -q pyt-net', 'node --test nt-net/',
                'python3 -m pytest pyt-net', 'python3 -m pytest -x -q pyt pyt-net']:
        agent('test-fail', cmd)
    for cmd in ['npx vitest run --root vt', 'npx vitest run --root vt-timeout', 'npx vitest run --root vt-net']:
        agent('test-fail', cmd, cwd=JS)

    # -- rule 10: SQL schema and constraint errors ---------------------------------------------
    for cmd in ['sqlite3 app.db "select nickname from users"', 'sqlite3 app.db "select * from accounts"',
                'sqlite3 app.db "insert into users(email) values (\'a@example.com\')"', 'sqlite3 app.db "insert into users(name) values (\'B\')"',
                'sqlite3 app.db "insert into users(id, email, name, age) values (5, \'c@x\', \'C\', 3)"',
                f'{PY} "import sqlite3; sqlite3.connect(\'app.db\').execute(\'select nickname from users\')"',
                f'{PY} "import sqlite3; sqlite3.connect(\'app.db\').execute(\'insert into orders values (1)\')"',
                f'{PSQL} -c "select nickname from customers"', f'{PSQL} -c "select * from accounts"',
                f'{PSQL} -c "insert into customers(email) values (\'a@example.com\')"', f'{PSQL} -c "insert into customers(name) values (\'B\')"',
                f'{PSQL} -c "insert into orders(customer_id, total) values (999, 1)"', f'{PSQL} -c "select 1/0"',
                f'{PSQL} -c "select \'abc\'::int"', f'{PSQL} -c "select * from customers where id = \'x\'"',
                f'{PSQL} -c "select nosuchfn(1)"', f'{PSQL} -c "create table customers(id int)"', f'{PSQL} -c "drop table invoices"',
                f'{PSQL} -c "alter table customers add column email text"', f'{PSQL} -c "select id from customers, orders"',
                f'{PSQL} -c "select count(*), name from customers"', f'{PSQL} -c "update customers set email = null"']:
        agent('sql-schema', cmd)
    for sql in ['select nickname from customers', 'select * from accounts', 'insert into customers(email) values (\'a@example.com\')',
                'selec 1', 'insert into orders(customer_id, total) values (999, 1)']:
        agent('sql-schema', f'{PSQL} -v VERBOSITY=verbose -c "{sql}"')
    for sql in ['select nickname from customers', 'select * from accounts']:
        agent('sql-schema', f'{PY} "import psycopg2" 2>/dev/null || python3 -c "import subprocess, sys; '
              f'p = subprocess.run([\'psql\', \'-h\', \'{PG_SOCK}\', \'-p\', \'55432\', \'-U\', \'postgres\', \'-d\', \'shop\', \'-X\', \'-c\', \'{sql}\'], capture_output=True, text=True); sys.exit(p.stderr)"')

    # -- rule 10: conflicts and preconditions the agent must resolve first --------------------
    for cmd in ['git merge clash', 'git branch feature', 'git checkout -b feature', 'git tag v1 && git tag v1',
                'git remote add origin https://example.com/x.git', 'git clone ' + ROOT + '/remote.git src',
                'git push origin main', 'git commit -m "nothing"', 'mkdir src', 'git worktree add ../blame-wt main',
                'git stash && git checkout clash && git stash pop', 'printf "x\\n" >> a.txt && git checkout clash',
                'printf "y\\n" >> a.txt && git pull --rebase . feature', 'npm ci', 'git init && git am nothere.mbox',
                'git pull --ff-only origin main', 'git checkout -q -B untracked-topic && git pull',
                'ln -s a.txt config.json', f'{PY} "import os; os.mkdir(\'src\')"', f'{NODE} "require(\'fs\').mkdirSync(\'src\')"',
                f'{PY} "import os; os.rmdir(\'src\')"', 'rmdir src', 'git rebase --continue', 'git cherry-pick --continue',
                'git merge --abort', 'cargo new crate', 'terraform -chdir=tf-empty apply -auto-approve']:
        agent('conflict-precondition', cmd)
    localized(agent, 'conflict-precondition', 'git checkout -q -B untracked-topic && git pull',
              langs=['de', 'fr', 'es', 'zh_CN', 'it', 'ru'])
    agent('bad-usage', 'npm install --dry-run --prefix . ./nothere-local-pkg', cwd=PLAIN)
    for cmd in ['git status', 'git log -1', 'npm run build', 'make', 'cargo build --offline', 'terraform plan',
                'python3 manage.py runserver']:
        agent('wrong-cwd', cmd, cwd=PLAIN)
    localized(agent, 'wrong-cwd', 'git status', langs=[x for x in LANGS if x not in ('de', 'ru')], cwd=PLAIN)
    localized(agent, 'wrong-cwd', 'make', langs=['de', 'fr', 'es', 'ja'], cwd=PLAIN)

    # -- rule 5 exception and rule 9: the path the agent chose is the wrong kind ---------------
    for cmd in ['cat src', 'cp src backup', 'rm sub', 'head sub', 'grep TODO src', f'{PY} "open(\'src\').read()"',
                f'{NODE} "require(\'fs\').readFileSync(\'src\')"', f'{NODE} "require(\'fs\').writeFileSync(\'sub\', \'x\')"',
                'cat a.txt/inner', 'mkdir a.txt/sub', f'{PY} "open(\'a.txt/x\')"', 'cd a.txt', './src']:
        agent('wrong-path-kind', cmd)
    localized(agent, 'wrong-path-kind', 'cat src', langs=['de', 'fr', 'es', 'zh_CN', 'ja'])

    # -- rule 2: transport failures ------------------------------------------------------------
    hosts = 'nonexistent.invalid'
    for cmd in [f'curl -sS http://127.0.0.1:{CLOSED}/health', f'curl -sS -X POST http://localhost:{CLOSED}/api/items',
                f'wget -nv -t 1 -O- http://127.0.0.1:{CLOSED}/', f'wget http://localhost:{CLOSED}/data.json',
                f'{NODE} "fetch(\'http://127.0.0.1:{CLOSED}/v1/items\').then(r => r.text())"',
                f'{NODE} "require(\'http\').get(\'http://127.0.0.1:{CLOSED}/\')"',
                f'{PY} "import urllib.request; urllib.request.urlopen(\'http://127.0.0.1:{CLOSED}/\')"',
                f'{PY} "import requests; requests.get(\'http://127.0.0.1:{CLOSED}/api\')"',
                f'{PY} "import socket; socket.create_connection((\'127.0.0.1\', {CLOSED}))"',
                f'psql -h 127.0.0.1 -p {CLOSED} -c "select 1"', f'git clone http://127.0.0.1:{CLOSED}/repo.git',
                f'git ls-remote http://localhost:{CLOSED}/org/repo.git', f'ssh -o BatchMode=yes -p {CLOSED} dev@127.0.0.1 true',
                f'npm view left-pad --registry http://127.0.0.1:{CLOSED}/',
                f'{AWSENV} aws --endpoint-url http://127.0.0.1:{CLOSED} --region us-east-1 s3 ls', 'kubectl get pods',
                'java -cp javabin Get http://127.0.0.1:' + str(CLOSED) + '/',
                f'{PY} "import socket; s = socket.socket(); s.connect((\'localhost\', {CLOSED}))"',
                f'{NODE} "require(\'net\').connect({CLOSED}, \'127.0.0.1\')"',
                f'{PSQL_TCP} -p {CLOSED} -c "select 1"']:
        harness('net-refused', cmd)
    localized(harness, 'net-refused', f'wget -nv -t 1 -O- http://127.0.0.1:{CLOSED}/', langs=['de', 'fr', 'es', 'zh_CN', 'ja'])
    localized(harness, 'net-refused', f'psql -h 127.0.0.1 -p {CLOSED} -c "select 1"', langs=['de', 'fr', 'es', 'ja'])
    for cmd in [f'curl -sS https://{hosts}/v1/models', f'curl -sS https://api.github.com/repos/octo/demo',
                f'wget -nv https://{hosts}/file.tar.gz', f'{NODE} "fetch(\'https://{hosts}/v1\').then(r => r.json())"',
                f'{NODE} "require(\'https\').get(\'https://api.openai.com/v1/models\')"',
                f'{PY} "import urllib.request; urllib.request.urlopen(\'https://{hosts}/\')"',
                f'{PY} "import requests; requests.get(\'https://api.stripe.com/v1/charges\')"',
                f'{PY} "import socket; socket.getaddrinfo(\'db.internal.invalid\', 5432)"',
                f'git clone https://github.com/octocat/Hello-World.git', f'git fetch https://{hosts}/org/repo.git',
                f'ssh -o BatchMode=yes deploy@{hosts} uptime', f'psql -h db.{hosts} -c "select 1"',
                f'npm view left-pad --registry https://{hosts}/',
                'cargo search --limit 1 serde',
                AWSENV + ' aws --region us-east-1 --endpoint-url https://s3.' + hosts + ' s3 ls',
                f'java -cp javabin Get https://{hosts}/',
                f'terraform -chdir=tf-provider init -input=false', f'docker -H tcp://{hosts}:2375 ps',
                f'{NODE} "require(\'dns\').promises.lookup(\'{hosts}\')"']:
        harness('net-dns', cmd)
    localized(harness, 'net-dns', f'wget -nv https://{hosts}/file.tar.gz', langs=['de', 'fr', 'es', 'zh_CN', 'ja'])
    localized(harness, 'net-dns', 'git clone https://github.com/octocat/Hello-World.git', langs=['de', 'fr', 'zh_CN'])
    for cmd in [f'curl -sS -v http://127.0.0.1:{RESET}/', f'curl -sS http://127.0.0.1:{CLOSE}/',
                f'wget -nv -t 1 -O- http://127.0.0.1:{RESET}/', f'wget -t 1 -O- http://127.0.0.1:{CLOSE}/',
                f'{NODE} "fetch(\'http://127.0.0.1:{RESET}/\').then(r => r.text())"',
                f'{NODE} "fetch(\'http://127.0.0.1:{CLOSE}/\').then(r => r.text())"',
                f'{NODE} "require(\'http\').get(\'http://127.0.0.1:{CLOSE}/\')"',
                f'{PY} "import urllib.request; urllib.request.urlopen(\'http://127.0.0.1:{CLOSE}/\')"',
                f'{PY} "import urllib.request; urllib.request.urlopen(\'http://127.0.0.1:{RESET}/\')"',
                f'{PY} "import requests; requests.get(\'http://127.0.0.1:{RESET}/\')"',
                f'{PY} "import requests; requests.post(\'http://127.0.0.1:{CLOSE}/\', json={{}})"',
                f'git clone http://127.0.0.1:{CLOSE}/repo.git', f'npm view left-pad --registry http://127.0.0.1:{RESET}/',
                f'java -cp javabin Get http://127.0.0.1:{CLOSE}/', f'psql -h 127.0.0.1 -p {RESET} -c "select 1"']:
        harness('net-reset', cmd)
    for cmd in [f'curl -sS -m 2 http://127.0.0.1:{HANG}/',                 f'wget -nv -T 2 -t 1 -O- http://127.0.0.1:{HANG}/',
                f'{NODE} "fetch(\'http://127.0.0.1:{HANG}/\', {{signal: AbortSignal.timeout(1000)}}).then(r => r.text())"',
                f'{PY} "import urllib.request; urllib.request.urlopen(\'http://127.0.0.1:{HANG}/\', timeout=1)"',
                f'{PY} "import requests; requests.get(\'http://127.0.0.1:{HANG}/\', timeout=1)"',
                f'{PY} "import socket; s = socket.create_connection((\'127.0.0.1\', {HANG}), timeout=1); s.recv(10)"',
                f'GIT_HTTP_LOW_SPEED_LIMIT=1000 GIT_HTTP_LOW_SPEED_TIME=2 git clone http://127.0.0.1:{HANG}/repo.git',
                f'npm view left-pad --registry http://127.0.0.1:{HANG}/ --fetch-timeout=1500 --fetch-retries=0',
                f'java -cp javabin Get http://127.0.0.1:{HANG}/', f'PGCONNECT_TIMEOUT=2 psql -h 127.0.0.1 -p {HANG} -c "select 1"',
                f'{AWSENV} aws --cli-read-timeout 1 --cli-connect-timeout 1 --endpoint-url http://127.0.0.1:{HANG} --region us-east-1 s3 ls',
                f'kubectl get pods --request-timeout=2s --server=http://127.0.0.1:{HANG}',
                f'ssh -o BatchMode=yes -o ConnectTimeout=2 -p {HANG} dev@127.0.0.1 true',
                f'{PSQL} -c "set statement_timeout = 50; select pg_sleep(2)"']:
        harness('net-timeout', cmd)
    # timeout(1) kills the command: the text says nothing, the exit status 124 does.
    for cmd in ['timeout 1 sleep 5', 'timeout 1 python3 -c "import time; time.sleep(5)"',
                f'timeout 2 curl -sS http://127.0.0.1:{HANG}/', 'timeout 1 tail -f a.txt >/dev/null']:
        harness('timeout-killed', cmd)
    for cmd in ['timeout -s KILL 1 sleep 5', "bash -c 'sleep 5 & kill -9 $!; wait $!'", "bash -c 'kill -TERM $$'",
                f'{PY} "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"']:
        harness('killed', cmd)

    # -- rule 2: TLS and certificates ----------------------------------------------------------
    for cmd in [f'curl -sS https://127.0.0.1:{TLS}/', f'curl -sS --cacert {P["other_ca"]} https://127.0.0.1:{TLS_OTHER}/',
                f'wget -nv -t 1 -O- https://127.0.0.1:{TLS}/', f'{NODE} "fetch(\'https://127.0.0.1:{TLS}/\').then(r => r.text())"',
                f'{NODE} "require(\'https\').get(\'https://127.0.0.1:{TLS}/\')"',
                f'{PY} "import urllib.request; urllib.request.urlopen(\'https://127.0.0.1:{TLS}/\')"',
                f'{PY} "import requests; requests.get(\'https://127.0.0.1:{TLS}/\')"',
                f'git clone https://127.0.0.1:{TLS}/repo.git', f'npm view left-pad --registry https://127.0.0.1:{TLS}/',
                f'pip download --isolated --no-deps -d /tmp/pipdl --retries 0 --index-url https://127.0.0.1:{TLS}/simple flask',
                f'java -cp javabin Get https://127.0.0.1:{TLS}/', f'curl -sS https://127.0.0.1:{H}/',
                f'openssl s_client -verify_return_error -connect 127.0.0.1:{TLS} </dev/null',
                f'{AWSENV} aws --endpoint-url https://127.0.0.1:{TLS} --region us-east-1 s3 ls',
                f'{NODE} "fetch(\'https://127.0.0.1:{H}/\').then(r => r.text())"',
                f'{PY} "import requests; requests.get(\'https://127.0.0.1:{H}/\')"']:
        harness('tls', cmd, det=True)

    # -- rules 2, 8, 9, 4, 5: HTTP statuses from real clients ----------------------------------
    for code, fn, cat, det in [(500, harness, 'http-5xx', False), (502, harness, 'http-5xx', False),
                               (503, harness, 'http-5xx', False), (504, harness, 'http-5xx', False),
                               (429, harness, 'rate-limit', False), (401, harness, 'auth', True),
                               (403, harness, 'authz', True), (404, agent, 'http-404', True),
                               (400, agent, 'http-4xx', True), (422, agent, 'http-4xx', True),
                               (405, agent, 'http-4xx', True), (410, agent, 'http-404', True)]:
        clients = [f'curl -sSf {U}/{code}/v1/items', f'curl -sS --fail-with-body {U}/{code}/v1/items', f'wget -nv -t 1 -O- {U}/{code}/v1/items',
                   f'{PY} "import urllib.request; urllib.request.urlopen(\'{U}/{code}/v1/items\')"',
                   f'{PY} "import requests; requests.get(\'{U}/{code}/v1/items\').raise_for_status()"']
        if code in (503, 404, 401, 429, 403, 500):
            clients += [f'npm view left-pad --registry {U}/{code}/ --fetch-retries=0', f'git clone {U}/{code}/org/repo.git']
        if code == 404:
            clients += [f'pip download --isolated --no-deps -d /tmp/pipdl --retries 0 --index-url {U}/{code}/simple flask']
        if code in (503, 404, 429, 401, 500):
            clients += [f'java -cp javabin Get {U}/{code}/v1/items']
        for cmd in clients:
            kw = {'det': det} if fn is harness else {}
            fn(cat, cmd, **kw)
    localized(harness, 'http-5xx', f'wget -nv -t 1 -O- {U}/503/v1/items', langs=['de', 'fr', 'es', 'ja'])
    localized(agent, 'http-404', f'wget -nv -t 1 -O- {U}/404/v1/items', langs=['de', 'fr', 'es', 'ja'])

    # -- rule 5: credentials and permissions of the session ------------------------------------
    for cmd in ['aws sts get-caller-identity', 'aws s3 ls', 'aws --region us-east-1 lambda list-functions',
                'gcloud auth print-access-token', 'gcloud projects list', 'npm whoami',
                'cargo publish --allow-dirty --no-verify --manifest-path crate/Cargo.toml',
                f'git push {U}/401/org/repo.git main', f'GIT_TERMINAL_PROMPT=0 git clone {U}/401/org/private.git',
                f'{PSQL_TCP} -U app -c "select 1"', f'PGPASSWORD=wrong {PSQL_TCP} -U app -c "select 1"',
                f'psql -h {PG_SOCK} -p 55432 -U reader -d shop -c "select * from customers"',
                f'psql -h {PG_SOCK} -p 55432 -U reader -d shop -c "insert into orders(customer_id) values (1)"',
                'gcloud compute instances list', 'gcloud storage ls gs://bucket']:
        harness('auth', cmd, det=True)
    ambiguous('auth', f'{PSQL_TCP} -U ghost -c "select 1"')
    harness('permission', 'git -C ' + LOCKED + ' status', det=True, user='nobody')
    for cmd in [f'cat {LOCKED}/data.txt', f'touch {LOCKED}/new.txt', f'rm {LOCKED}/data.txt', f'mkdir {LOCKED}/out',
                f'cp a.txt {LOCKED}/', f'{PY} "open(\'{LOCKED}/data.txt\').read()"', f'{PY} "open(\'{LOCKED}/out.txt\', \'w\')"',
                f'{NODE} "require(\'fs\').readFileSync(\'{LOCKED}/data.txt\')"',
                f'{NODE} "require(\'fs\').writeFileSync(\'{LOCKED}/out.txt\', \'x\')"',
                f'sed -i s/a/b/ {LOCKED}/data.txt', f'echo x > {LOCKED}/log.txt', f'git -C {LOCKED} init',
                'apt-get install -y jq', 'apt-get update', 'npm install -g left-pad',
                f'chown nobody {LOCKED}/data.txt',
                'mount -t tmpfs tmpfs /mnt', f'tee {LOCKED}/t.txt < /dev/null', 'su -c true root </dev/null']:
        harness('permission', cmd, det=True, user='nobody')
    localized(harness, 'permission', f'cat {LOCKED}/data.txt', user='nobody')
    localized(harness, 'permission', f'touch {LOCKED}/new.txt', langs=['de', 'fr', 'es', 'zh_CN', 'ja'], user='nobody')
    for cmd in [f'touch {RO}/new.txt', f'rm {RO}/notes.txt', f'echo x >> {RO}/notes.txt', f'mkdir {RO}/cache',
                f'{PY} "open(\'{RO}/out.txt\', \'w\')"', f'{NODE} "require(\'fs\').writeFileSync(\'{RO}/out.txt\', \'x\')"',
                f'git init {RO}/repo', f'cp a.txt {RO}/']:
        harness('read-only-fs', cmd, det=True)
    localized(harness, 'read-only-fs', f'touch {RO}/new.txt', langs=['de', 'fr', 'es', 'zh_CN', 'ja'])
    # A script without its executable bit: another call (`bash run.sh`) works, but the text is a
    # permission error on a workspace path, which rule 5 gives to the environment.
    harness('permission', './run.sh', det=True)
    unknown('tool-internal-error', 'npm publish')
    unknown('tool-internal-error', f'npm pack --pack-destination {FULL}')
    harness('permission', 'git -C ' + LOCKED + ' log -1', det=True, user='nobody')

    # -- rule 6: host resources ----------------------------------------------------------------
    for cmd in [f'dd if=/dev/zero of={FULL}/big.bin bs=64k count=10', f'cp /usr/bin/git {FULL}/',
                f'{PY} "open(\'{FULL}/out.bin\', \'wb\').write(b\'x\' * 1000000)"',
                f'{NODE} "require(\'fs\').writeFileSync(\'{FULL}/out.bin\', Buffer.alloc(1000000))"',
                f'git clone -q {W} {FULL}/clone', f'tar -cf {FULL}/w.tar .', f'sqlite3 {FULL}/big.db "create table t(x); insert into t select randomblob(100000) from (select 1 union all select 2 union all select 3)"',
                f'seq 1 200000 > {FULL}/numbers.txt', f'mkdir {FULL}/d && head -c 300000 /dev/zero > {FULL}/d/z',
                f'unzip -o -d {FULL} bundle-real.zip',
                f'cat build.js build.js > {FULL}/small.txt && head -c 400000 /dev/urandom >> {FULL}/small.txt']:
        harness('disk-full', cmd, det=True)
    localized(harness, 'disk-full', f'dd if=/dev/zero of={FULL}/big.bin bs=64k count=10', langs=['de', 'fr', 'es', 'zh_CN', 'ja'])
    for cmd in ['node --max-old-space-size=16 -e "const a = []; while (true) a.push(new Array(1e5).fill(1))"',
                'bash -c "ulimit -v 200000; python3 -c \'x = bytearray(10**9)\'"',
                'java -Xmx8m -cp javabin Hog',
                'bash -c "ulimit -n 16; python3 -c \'fs = [open(\\"a.txt\\") for _ in range(64)]\'"',
                'bash -c "ulimit -n 20; node -e \'const fs = require(\\"fs\\"); for (let i = 0; i < 64; i++) fs.openSync(\\"a.txt\\")\'"',
                'bash -c "ulimit -f 1; head -c 10000 /dev/zero > /tmp/blame-corpus/fsize.bin"',
                'bash -c "ulimit -u 1; sh -c true & wait"']:
        harness('resources', cmd, det=True, user='nobody' if 'ulimit -u' in cmd else None)

    # -- rule 7: a tool, daemon or server that is not running ----------------------------------
    agent('wrong-cwd', 'mvn -q package', cwd=PLAIN)
    agent('not-found-file', 'docker build -t app .')
    # A rootless daemon's socket (DOCKER_HOST), as set up by dockerd-rootless-setuptool.sh.
    for cmd in ['docker version', 'DOCKER_HOST=unix:///run/user/1000/docker.sock docker run --rm alpine echo hi',
                'DOCKER_HOST=unix:///run/user/1000/docker.sock docker pull postgres:16',
                'docker -H unix:///run/user/1000/docker.sock images',
                'DOCKER_HOST=unix:///run/user/1000/docker.sock docker exec -it web sh',
                'docker -H tcp://127.0.0.1:2375 logs api',
                'psql -c "select 1"', f'psql -h {ROOT}/nosock -p 5432 -d shop -c "select 1"', 'pg_isready -h /tmp -p 5499',
                'systemctl restart nginx', 'systemctl status postgresql', 'kubectl cluster-info']:
        harness('daemon-down', cmd)
    localized(harness, 'daemon-down', 'psql -c "select 1"', langs=['de', 'fr', 'es', 'ja', 'zh_CN'])

    # -- rule 11: lock contention and busy resources -------------------------------------------
    for git in ['git commit -am wip', 'git add a.txt', 'git checkout feature', 'git rm --cached a.txt']:
        harness('lock-contention', f'touch .git/index.lock && {git}; s=$?; rm -f .git/index.lock; exit $s')
    localized(harness, 'lock-contention', 'touch .git/index.lock && git add a.txt; s=$?; rm -f .git/index.lock; exit $s',
              langs=['de', 'fr', 'es', 'zh_CN'])
    harness('lock-contention', f'{PY} "import sqlite3, subprocess; c = sqlite3.connect(\'app.db\'); c.execute(\'begin exclusive\'); '
            f'print(subprocess.run([\'sqlite3\', \'app.db\', \'select * from users\'], capture_output=True, text=True).stderr, end=\'\'); raise SystemExit(1)"')
    harness('lock-contention', f'{PY} "import sqlite3; a = sqlite3.connect(\'app.db\'); a.execute(\'begin exclusive\'); '
            f'b = sqlite3.connect(\'app.db\', timeout=0.1); b.execute(\'insert into users(email) values (1)\')"')
    harness('lock-contention', 'cp /bin/sleep ./sleeper && (./sleeper 3 &) && sleep 0.5 && cp /bin/true ./sleeper')
    harness('lock-contention', f'cd {FULL} && umount {FULL}')
    harness('lock-contention', f'(psql -h {PG_SOCK} -p 55432 -U postgres -d shop -X -q -c "begin; lock table orders; select pg_sleep(3); commit" >/dev/null &) ; sleep 0.7; '
            f'{PSQL} -c "set lock_timeout = 200; update orders set total = 1"')
    harness('lock-contention', f'(psql -h {PG_SOCK} -p 55432 -U postgres -d shop -X -q -c "begin; lock table customers; select pg_sleep(3); commit" >/dev/null &) ; sleep 0.7; '
            f'{PSQL} -c "set lock_timeout = 200; select * from customers"')
    harness('lock-contention', '(terraform -chdir=tf-lock apply -auto-approve -replace=terraform_data.x >/dev/null 2>&1 &) ; sleep 2; '
            'terraform -chdir=tf-lock apply -auto-approve -lock-timeout=0s')

    # -- MCP and JSON-RPC are gathered by mcp-gather.mjs (see below) ---------------------------

    # -- rule 12: failures that say nothing ----------------------------------------------------
    for cmd in ['false', 'exit 1', 'test -f nothere.txt', '[ -d build ]', 'grep -q TODO a.txt', 'diff -q a.txt config.json',
                'cmp -s a.txt build.js', 'npm run lint', 'bash -c "exit 3"', f'{PY} "import sys; sys.exit(2)"',
                f'{NODE} "process.exit(1)"', 'git diff --exit-code HEAD~1', 'make fail-silently']:
        unknown('bare', cmd)


# ---------------------------------------------------------------------------------------------
# The validation half: other tools and other wordings, written after the rules were, and run only
# to measure them (`--half validation`). Labels follow RULES.md, as above.

def validation_cases():
    H = P['http']
    U = f'http://127.0.0.1:{H}'
    CLOSED = P['closed']
    HANG = P['hang']
    RESET = P['reset']
    R = P['redis']
    RC = f'redis-cli -e -p {R} --no-auth-warning'
    NODE = 'node --input-type=module -e'
    PY = 'python3 -c'

    # redis on loopback, with a password
    harness('auth', f'{RC} -a wrong-password ping', det=True)
    harness('auth', f'{RC} ping', det=True)
    harness('net-refused', f'redis-cli -e -p {CLOSED} ping')
    agent('unknown-subcommand', f'{RC} -a right-password FROBNICATE key')
    agent('wrong-type', f'{RC} -a right-password set greeting hi && {RC} -a right-password lpush greeting x')
    agent('validation', f'{RC} -a right-password config set maxmemory lots')
    agent('validation', f'{RC} -a right-password expire greeting soon')
    agent('validation', f'{RC} -a right-password incr greeting')

    # sqlite
    agent('sql-constraint', f"""sqlite3 app.db "insert into users(email, name) values ('a@example.com', 'B')" """)
    agent('not-found-file', 'sqlite3 app.db ".import missing.csv users"')
    agent('not-found-file', 'sqlite3 /nonexistent/dir/x.db "select 1"')
    agent('sql-schema', 'sqlite3 app.db "select total from orders"')
    agent('syntax', 'sqlite3 app.db "selec * from users"')

    # node's fetch
    harness('net-refused', f"{NODE} \"await fetch('http://127.0.0.1:{CLOSED}/')\"")
    harness('net-reset', f"{NODE} \"await fetch('http://127.0.0.1:{RESET}/')\"")
    harness('net-timeout', f"{NODE} \"await fetch('http://127.0.0.1:{HANG}/', {{ signal: AbortSignal.timeout(500) }})\"")
    harness('net-dns', f"{NODE} \"await fetch('http://nonexistent.invalid/')\"")
    agent('net-malformed-url', f"{NODE} \"await fetch('api/items')\"")
    agent('net-malformed-url', f"{NODE} \"new URL('htp//example.com')\"")
    harness('cancelled', f"{NODE} \"const c = new AbortController(); c.abort(); await fetch('http://127.0.0.1:{H}/', {{ signal: c.signal }})\"")

    # python requests and urllib
    agent('net-malformed-url', f"{PY} \"import requests; requests.get('127.0.0.1:{H}/items')\"")
    agent('net-malformed-url', f"{PY} \"import requests; requests.get('example.com/api')\"")
    harness('net-refused', f"{PY} \"import requests; requests.get('http://127.0.0.1:{CLOSED}/')\"")
    harness('net-timeout', f"{PY} \"import requests; requests.get('http://127.0.0.1:{HANG}/', timeout=1)\"")
    harness('http-5xx', f"{PY} \"import requests; requests.get('{U}/503/v1/items').raise_for_status()\"")
    harness('http-5xx', f"{PY} \"import requests; requests.get('{U}/500/v1/items').raise_for_status()\"")
    harness('auth', f"{PY} \"import requests; requests.get('{U}/401/v1/me').raise_for_status()\"", det=True)
    harness('authz', f"{PY} \"import requests; requests.get('{U}/403/v1/admin').raise_for_status()\"", det=True)
    agent('http-404', f"{PY} \"import requests; requests.get('{U}/404/v1/items/9').raise_for_status()\"")
    harness('rate-limit', f"{PY} \"import requests; requests.get('{U}/429/v1/items').raise_for_status()\"")
    agent('net-malformed-url', f"{PY} \"import urllib.request; urllib.request.urlopen('example.com/data.json')\"")
    agent('not-found-archive', f"{PY} \"import urllib.request, zipfile; urllib.request.urlretrieve('{U}/200/release-9.9.zip', 'rel.zip'); zipfile.ZipFile('rel.zip')\"")

    # curl, wget, tar and unzip: guessed downloads and malformed URLs
    agent('http-404', f'curl -fsS {U}/404/archive/v9.9.9.tar.gz -o v9.tgz')
    agent('not-found-archive', f'curl -sL {U}/404/releases/tool-9.9.tar.gz | tar xz')
    agent('not-found-archive', f'curl -sL -o tool.zip {U}/404/tool-9.9.zip; unzip tool.zip')
    agent('net-malformed-url', 'curl -sS htp://example.com/file')
    agent('net-malformed-url', 'curl -sS "http://exa mple.com/"')
    harness('auth', f'curl -fsS -u bot:wrong {U}/401/api/user', det=True)
    harness('http-5xx', f'curl -fsS {U}/502/api/items')
    agent('http-404', f'wget -nv {U}/404/dist/pkg-1.2.3.zip')
    harness('http-5xx', f'wget -nv --tries=1 {U}/503/dist/pkg.zip')

    # git over http
    harness('net-refused', f'git clone -q http://127.0.0.1:{CLOSED}/team/app.git')
    agent('not-found-id', f'git clone -q {U}/404/team/app.git')
    harness('auth', f'git clone -q {U}/401/team/private.git', det=True)
    harness('http-5xx', f'git clone -q {U}/503/team/app.git')
    agent('net-malformed-url', 'git clone -q htp://example.com/team/app.git')
    agent('not-found-id', 'git ls-remote /nonexistent/team/app.git')

    # a broken environment
    harness('broken-env', 'rm -rf /tmp/libgone && mkdir -p /tmp/libgone && printf "int f(void){return 1;}" > /tmp/libgone/f.c && '
            'gcc -shared -fPIC -o /tmp/libgone/libgone.so /tmp/libgone/f.c && printf "int f(void); int main(void){return f();}" > /tmp/libgone/m.c && '
            'gcc -o /tmp/libgone/m /tmp/libgone/m.c -L/tmp/libgone -lgone && rm /tmp/libgone/libgone.so && /tmp/libgone/m', det=True)
    harness('broken-env', 'mkdir -p gone && cd gone && rmdir ../gone && bash -c "pwd -P"', det=True)
    harness('broken-env', 'mkdir -p gone2 && cd gone2 && rmdir ../gone2 && node -e "process.cwd()"', det=True)
    harness('broken-env', 'rm -rf /tmp/venv-nopip && python3 -m venv --without-pip /tmp/venv-nopip && /tmp/venv-nopip/bin/python -m pip list', det=True)

    # typescript and npm, offline
    agent('not-found-file', f'cd {JS} && node node_modules/typescript/bin/tsc -p tsconfig.missing.json')
    agent('usage', f'cd {JS} && node node_modules/typescript/bin/tsc --strictest')
    agent('not-found-file', 'pip download -q --no-index --find-links /nonexistent six==99.0 -d /tmp/dl')

    # perl, python sockets, ssh, node, java: other clients of the same failures
    agent('missing-module', "perl -e 'use Nonexistent::Module;'")
    agent('syntax', """perl -e 'print "a" .. ;'""")
    agent('not-found-file', """perl -e 'open(my $f, "<", "missing.txt") or die "open: $!"'""")
    harness('net-refused', f"{PY} \"import socket; socket.create_connection(('127.0.0.1', {CLOSED}))\"")
    harness('net-timeout', f"{PY} \"import socket; s = socket.create_connection(('127.0.0.1', {HANG}), timeout=1); s.recv(10)\"")
    harness('net-refused', f"{PY} \"import smtplib; smtplib.SMTP('127.0.0.1', {CLOSED})\"")
    agent('syntax', """echo '{"a":}' | python3 -m json.tool""")
    harness('net-refused', f'ssh -o BatchMode=yes -o StrictHostKeyChecking=no -p {CLOSED} dev@127.0.0.1 true')
    agent('not-found-file', """node -e "require('fs').readFileSync('missing.json')" """)
    harness('net-dns', """node -e "require('dns').lookup('nonexistent.invalid', (e) => { if (e) throw e })" """)
    agent('syntax', """node -e "JSON.parse('{bad')" """)
    agent('missing-module', """node -e "require('./missing-module')" """)
    harness('net-refused', f"""node -e "require('net').connect({CLOSED}, '127.0.0.1').on('error', (e) => {{ throw e }})" """)
    harness('net-refused', f'java -cp javabin Get http://127.0.0.1:{CLOSED}/')
    agent('http-404', f'java -cp javabin Get {U}/404/v1/items/9')
    harness('http-5xx', f'java -cp javabin Get {U}/503/v1/items')
    agent('net-malformed-url', 'java -cp javabin Get htp://example.com/')
    agent('usage', f'{RC} -a right-password get')
    agent('sql-constraint', """sqlite3 app.db "insert into users(id, email) values (1, 'z@example.com')" """)
    harness('net-timeout', f'curl -sS --max-time 1 http://127.0.0.1:{HANG}/v1/items')
    agent('not-found-file', 'git -C /nonexistent/repo status')
    agent('not-found-archive', "printf '<html>Not Found</html>' > dl.tgz && tar -xzf dl.tgz")


# ---------------------------------------------------------------------------------------------
# Extra fixtures the cases above refer to

def more_fixtures():
    sh(f'''
cd {W}
mkdir -p {JS}/tsbad {JS}/vt {JS}/vt-timeout {JS}/vt-net javabin tf-bad tf-empty tf-lock tf-provider badpkg crate/src panic/src crate-test/src vt vt-timeout vt-net nt nt-net pyt pyt-net ut wheels
printf 'const x: number = "a";\\nexport {{}};\\n' > {JS}/tsbad/a.ts
printf '{{ "compilerOptions": {{ "strict": true, "noEmit": true }}, "include": ["*.ts"] }}\\n' > {JS}/tsbad/tsconfig.json
printf 'function area(r) {{ return 3.14 * r * r }}\\nexport const total: string = area(2);\\n' > {JS}/types.ts
printf 'int main() {{ int x = 1 return x; }}\\n' > bad.c
printf 'int main() {{ return missing_fn(2); }}\\n' > undefined.c
printf 'public class Bad {{ public static void main(String[] a) {{ int x = "s"; }} }}\\n' > Bad.java
printf 'fn main() {{ let x: i32 = "s"; }}\\n' > bad.rs
printf 'function broken( {{\\n' > broken.js
printf 'def broken(:\\n    pass\\n' > broken.py
printf '[core\\n\\tbare = false\\n' > bad.gitconfig
printf '{{ "name": "badpkg", "version": "1.0.0", }}\\n' > badpkg/package.json
printf 'resource "terraform_data" "x" {{\\n  input = \\n}}\\n' > tf-bad/main.tf
printf 'variable "region" {{}}\\nresource "terraform_data" "x" {{ input = var.regon }}\\n' > tf-empty/main.tf
printf 'resource "terraform_data" "x" {{\\n  input = "a"\\n  provisioner "local-exec" {{ command = "sleep 6" }}\\n}}\\n' > tf-lock/main.tf
printf 'terraform {{\\n  required_providers {{\\n    aws = {{ source = "hashicorp/aws" }}\\n  }}\\n}}\\n' > tf-provider/main.tf
printf '[package]\\nname = "demo"\\nversion = "0.1.0"\\nedition = "2021"\\n' > crate/Cargo.toml
printf 'fn main() {{ let v: Vec<u8> = vec![1]; let s: String = v; println!("{{}}", s); }}\\n' > crate/src/main.rs
printf '[package]\\nname = "panicky"\\nversion = "0.1.0"\\nedition = "2021"\\n' > panic/Cargo.toml
printf 'fn main() {{ let v: Vec<u32> = Vec::new(); let port: Option<u16> = None; println!("{{}}", v.len()); port.expect("PORT must be set"); }}\\n' > panic/src/main.rs
printf '[package]\\nname = "tested"\\nversion = "0.1.0"\\nedition = "2021"\\n' > crate-test/Cargo.toml
printf 'pub fn add(a: i32, b: i32) -> i32 {{ a - b }}\\n#[cfg(test)]\\nmod tests {{ #[test] fn adds() {{ assert_eq!(super::add(2, 2), 4); }} }}\\n' > crate-test/src/lib.rs
printf 'import {{ test, expect }} from "vitest";\\ntest("adds totals", () => {{ expect(1 + 1).toBe(3); }});\\n' > {JS}/vt/sum.test.js
printf 'import {{ test }} from "vitest";\\ntest("retries after a gateway timeout", async () => {{ await new Promise(r => setTimeout(r, 500)); }}, 100);\\n' > {JS}/vt-timeout/slow.test.js
printf 'import {{ test, expect }} from "vitest";\\ntest("maps ECONNREFUSED to a retry", () => {{ expect({{ code: "ECONNREFUSED", retry: false }}).toEqual({{ code: "ECONNREFUSED", retry: true }}); }});\\n' > {JS}/vt-net/net.test.js
printf 'const test = require("node:test");\\nconst assert = require("node:assert");\\ntest("parses the port", () => {{ assert.strictEqual(Number("80a"), 80); }});\\n' > nt/port.test.js
printf 'const test = require("node:test");\\nconst assert = require("node:assert");\\ntest("503 Service Unavailable is retried", () => {{ assert.deepStrictEqual({{ status: 503, retried: false }}, {{ status: 503, retried: true }}); }});\\n' > nt-net/retry.test.js
printf 'def test_total():\\n    assert sum([1, 2]) == 4\\n' > pyt/test_total.py
printf 'def classify(e):\\n    return "agent"\\n\\ndef test_connection_refused_is_harness():\\n    assert classify("Connection refused") == "harness"\\n' > pyt-net/test_classify.py
printf 'import unittest\\nclass T(unittest.TestCase):\\n    def test_name(self):\\n        self.assertEqual("a".upper(), "B")\\n' > ut/test_name.py
printf 'pub fn x() {{}}\\n' > crate/src/lib.rs
printf 'fail-silently:\\n\\t@exit 4\\n' >> Makefile
printf 'print("hello")\\n' > tests/test_rate_limit.py
printf 'import json\\ndef handler():\\n    return json.loads(open("missing-fixture.json").read())\\nhandler()\\n' >> tests/test_rate_limit.py
''')
    # Java helpers: an HTTP GET, a NullPointerException, an out-of-bounds index, a heap hog.
    java = {
        'Get.java': 'import java.net.*; import java.io.*; public class Get { public static void main(String[] a) throws Exception { '
                    'HttpURLConnection c = (HttpURLConnection) new URL(a[0]).openConnection(); c.setConnectTimeout(2000); c.setReadTimeout(2000); '
                    'try (InputStream in = c.getInputStream()) { in.transferTo(System.out); } } }',
        'Npe.java': 'public class Npe { static String name() { return null; } public static void main(String[] a) { System.out.println(name().trim()); } }',
        'Oob.java': 'public class Oob { public static void main(String[] a) { int[] xs = new int[2]; System.out.println(xs[3]); } }',
        'Hog.java': 'import java.util.*; public class Hog { public static void main(String[] a) { List<long[]> l = new ArrayList<>(); while (true) l.add(new long[1000000]); } }',
    }
    for name, src in java.items():
        with open(f'{W}/javabin/{name}', 'w') as f:
            f.write(src)
    sh(f'cd {W}/javabin && javac *.java')
    sh(f'cd {W} && zip -q bundle-real.zip build.js Makefile a.txt && head -c 300000 /dev/urandom > big.bin && zip -q bundle-real.zip big.bin && rm big.bin')
    sh(f'cd {W} && pip download -q six --no-deps -d wheels --no-index --find-links {os.path.expanduser("~/.cache/pip")} 2>/dev/null || true')
    sh(f'cd {W}/tf-lock && terraform init -input=false >/dev/null 2>&1 || true')
    # vitest and typescript come from narrowing's own node_modules.
    os.symlink(NODE_MODULES, f'{JS}/node_modules')
    sh(f'cd {W} && git add -A >/dev/null 2>&1; git commit -qm fixtures || true')
    subprocess.run(f'chmod -R a+rX {ROOT}; chmod 600 {LOCKED}/data.txt', shell=True)
    with open(f'{ROOT}/terraformrc', 'w') as f:
        f.write('')


# ---------------------------------------------------------------------------------------------
# Running and recording

ANSI = re.compile(r'\x1b\[[0-9;?]*[ -/]*[@-~]')
NPM_CONFIG_WARNING = re.compile(r'^npm warn Unknown user config "nodedir".*\n?', re.M)


def clean(text):
    text = ANSI.sub('', text)
    text = NPM_CONFIG_WARNING.sub('', text)
    text = '\n'.join(line.rstrip() for line in text.replace('\r\n', '\n').split('\n')).strip('\n')
    if len(text) > 3000:
        lines = text.split('\n')
        head, tail = [], []
        while lines and sum(len(x) + 1 for x in head) + len(lines[0]) < 1400:
            head.append(lines.pop(0))
        while lines and sum(len(x) + 1 for x in tail) + len(lines[-1]) < 1400:
            tail.insert(0, lines.pop())
        text = '\n'.join(head + ['[…]'] + tail)
    return text


def run_case(c, index):
    env = dict(os.environ)
    env.pop('LANG', None)
    env.update({'LC_ALL': 'C.UTF-8', 'HOME': os.path.expanduser('~') if c['user'] is None else '/tmp',
                'GIT_TERMINAL_PROMPT': '0', 'TF_CLI_CONFIG_FILE': f'{ROOT}/terraformrc', 'TF_IN_AUTOMATION': '1', 'NO_COLOR': '1', 'PAGER': 'cat', 'AWS_EC2_METADATA_DISABLED': 'true',
                'PIP_DISABLE_PIP_VERSION_CHECK': '1', 'npm_config_update_notifier': 'false', 'PYTHONDONTWRITEBYTECODE': '1'})
    if c['lang']:
        env['LANGUAGE'] = c['lang']
    cmd = c['cmd']
    argv = ['bash', '-c', cmd]
    if c['user']:
        argv = ['runuser', '-u', c['user'], '--', 'env', f'PATH={env["PATH"]}'] + argv
    try:
        p = subprocess.run(argv, cwd=c['cwd'], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=90)
        out, code = p.stdout.decode('utf-8', 'replace'), p.returncode
        if code < 0:  # killed by a signal: report it as a shell does, 128 + n
            code = 128 - code
    except subprocess.TimeoutExpired as e:
        out, code = (e.stdout or b'').decode('utf-8', 'replace'), None
    sh(f'cd {W} && git checkout -q -f main 2>/dev/null; git reset -q --hard 2>/dev/null; git stash clear; '
       f'rm -rf src/.x blame-wt ../blame-wt .git/index.lock sleeper; git worktree prune; true')
    return clean(out), code


def tool_for(c, index):
    if c['tool']:
        return c['tool']
    return SHELL_TOOLS[index % len(SHELL_TOOLS)]


def source_for(c, code):
    prefix = f"LANGUAGE={c['lang']} " if c['lang'] else ''
    who = f" as {c['user']}" if c['user'] else ''
    where = ' in an empty directory' if c['cwd'] == PLAIN else ''
    return f"local:`{prefix}{c['cmd']}`{who}{where} (Debian 12, exit {code})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True, help='the JSONL file to write (keep it outside the repository)')
    ap.add_argument('--half', choices=('design', 'validation'), default='design',
                    help='which half of the corpus to gather: the cases the rules were designed on, or the others')
    ap.add_argument('--only')
    args = ap.parse_args()
    records, skipped = [], []
    try:
        setup_fixtures()
        more_fixtures()
        start_servers()
        if args.half == 'design':
            cases()
        else:
            validation_cases()
        selected = [c for c in CASES if not args.only or args.only in c['cmd'] or args.only == c['cat']]
        for i, c in enumerate(selected):
            text, code = run_case(c, i)
            if code == 0 or code is None:
                skipped.append((c['cmd'], c['lang'], code, text[:200]))
                continue
            if text == '' and c['cat'] not in ('timeout-killed', 'killed', 'bare'):
                skipped.append((c['cmd'], c['lang'], code, '(no output)'))
                continue
            rec = {'text': text, 'tool': tool_for(c, i), 'args': {'command': c['cmd']}, 'blame': c['blame'],
                   'deterministic': c['det'], 'category': c['cat'], 'source': source_for(c, code), 'exitCode': code}
            rec['half'] = args.half
            records.append(rec)
            print(f"[{len(records)}] {c['cat']} {c['lang'] or ''} exit {code}: {text[:150]!r}", file=sys.stderr)
        if not args.only and args.half == 'design':
            mcp = subprocess.run(['node', os.path.join(HERE, 'mcp-gather.mjs'), ROOT], capture_output=True, text=True,
                                 timeout=600, cwd=HERE)
            for line in mcp.stdout.splitlines():
                rec = json.loads(line)
                rec['text'] = clean(rec['text'])
                records.append(rec)
            print(mcp.stderr, file=sys.stderr)
    finally:
        teardown()
    with open(args.out, 'w', encoding='utf-8') as f:
        for rec in records:
            f.write(json.dumps(rec, ensure_ascii=False) + '\n')
    print(f'{len(records)} records, {len(skipped)} skipped', file=sys.stderr)
    for s in skipped:
        print('  skipped:', s, file=sys.stderr)


if __name__ == '__main__':
    main()
