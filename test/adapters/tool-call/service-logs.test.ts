import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../../src/adapters/tool-call/index.js';
import { printsServiceLogs } from '../../../src/adapters/tool-call/shell-effects.js';
import { Agent } from '../../core/support.js';

/** What `docker logs` printed of a Spring Boot service that had refused a malformed request. */
const SERVICE_LOG = [
  '2025-05-22T13:09:29.267Z  INFO 1 --- [shop] [           main] c.example.shop.util.ImageUploader    :',
  ' Product images synchronised',
  '2025-05-22T13:14:37.649Z  INFO 1 --- [shop] [0.0-8080-exec-1] o.apache.coyote.http11.Http11Processor   :',
  ' Error parsing HTTP request header',
  ' Note: further occurrences of HTTP request parsing errors will be logged at DEBUG level.',
  '',
  'java.lang.IllegalArgumentException: Invalid character found in method name [0x160x030x010x060xe0]. HTTP method names must be tokens',
  '        at org.apache.coyote.http11.Http11InputBuffer.parseRequestLine(Http11InputBuffer.java:406)',
  '        at org.apache.coyote.http11.Http11Processor.service(Http11Processor.java:270)',
  '        at org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun(NioEndpoint.java:1769)',
  '        at java.base/java.lang.Thread.run(Thread.java:833)',
].join('\n');

/** A saved terminal shows no exit status: a log line starting with `Error` read as the command failing. */
const LOGGED_ERRORS = { text: SERVICE_LOG, isError: true };

describe("a command that prints a service's logs", () => {
  it('may run again after its output held the errors the service logged', () => {
    const agent = new Agent();
    agent.call('run_terminal_cmd', { command: 'docker logs shop-app | tail -n 50' }, LOGGED_ERRORS);
    expect(agent.check('run_terminal_cmd', { command: 'docker logs shop-app' }).verdict).toBe('allow');
    expect(agent.check('run_terminal_cmd', { command: 'docker logs shop-app | tail -n 50' }).verdict).toBe(
      'allow',
    );
  });

  it('is blamed on nobody when only the text it printed says it failed', () => {
    const adapter = createToolCallAdapter();
    for (const command of [
      'kubectl logs deploy/api --since=10m',
      'journalctl -u nginx --no-pager | tail -100',
      'tail -n 200 logs/app.log',
      'sleep 10 && docker compose logs api | grep -i error',
      'cd /srv/shop && docker compose logs api --tail 200',
      'sudo -u deploy journalctl -u nginx --since "10 min ago"',
    ]) {
      const proposal = toolCallToProposal('bash', { command });
      const outcome = toolCallToOutcome(
        'bash',
        { command },
        { content: [{ type: 'text', text: SERVICE_LOG }], isError: true },
      );
      const facts = adapter.describeCall(proposal);
      expect(adapter.describeFailure({ ...outcome, proposal }, facts)?.blame, command).toBe('unknown');
    }
  });

  it('still fails when its exit status says so', () => {
    const adapter = createToolCallAdapter();
    const command = 'docker logs shop-ap';
    const proposal = toolCallToProposal('bash', { command });
    const outcome = toolCallToOutcome(
      'bash',
      { command },
      { content: [{ type: 'text', text: 'Error response from daemon: No such container: shop-ap' }] },
      { exitCode: 1 },
    );
    expect(adapter.describeFailure({ ...outcome, proposal }, adapter.describeCall(proposal))?.blame).toBe(
      'agent_failure',
    );
  });

  it('leaves a failing command that is not a log printer judged by its text', () => {
    const agent = new Agent();
    const crash = { text: SERVICE_LOG, isError: true };
    agent.call('run_terminal_cmd', { command: 'java -jar target/shop.jar' }, crash);
    agent.call('run_terminal_cmd', { command: 'java -jar target/shop.jar' }, crash);
    expect(agent.check('run_terminal_cmd', { command: 'java -jar target/shop.jar' }).verdict).toBe('block');
  });
});

describe('the log printer reader on any input', () => {
  it('answers for any command line without throwing, and never for one that writes a file', () => {
    const line = fc.stringMatching(/^[a-z .|&;>/-]{0,120}$/);
    fc.assert(
      fc.property(line, (command) => {
        const prints = printsServiceLogs(command);
        expect(typeof prints).toBe('boolean');
        expect(printsServiceLogs(`${command} > out.txt`)).toBe(false);
      }),
    );
    expect(printsServiceLogs('docker logs app'.repeat(2_000))).toBe(false);
  });
});
