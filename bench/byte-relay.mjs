/**
 * Sits where a stdio proxy sits and only copies bytes, both ways, between its own stdio and the
 * server it starts: what one more process in the path costs before any proxy does any work.
 * `bench proxy` measures it beside narrowing. Usage: node bench/byte-relay.mjs <command> [args…]
 */
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node bench/byte-relay.mjs <command> [args…]\n');
  process.exit(2);
}
const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(server.stdin);
server.stdout.pipe(process.stdout);
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
