/**
 * Sits where a stdio proxy sits and reads every message, both ways: each line is parsed as JSON
 * and written again from what was parsed. What a proxy that reads messages costs before it does
 * anything with them; `bench proxy --breakdown` measures it beside narrowing and the byte relay.
 * Usage: node bench/json-relay.mjs <command> [args…]
 */
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node bench/json-relay.mjs <command> [args…]\n');
  process.exit(2);
}
const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
relayMessages(process.stdin, server.stdin);
relayMessages(server.stdout, process.stdout);
process.stdin.on('end', () => server.stdin.end());
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

/** Each line from `input`, parsed and written again to `output`; the lines of one read in one write. */
function relayMessages(input, output) {
  let pending = '';
  input.on('data', (chunk) => {
    const text = pending + chunk.toString('utf8');
    let start = 0;
    let out = '';
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const line = text.slice(start, newline);
      start = newline + 1;
      if (line.trim() !== '') out += `${JSON.stringify(JSON.parse(line))}\n`;
    }
    pending = text.slice(start);
    if (out !== '') output.write(out);
  });
}
