import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../src/adapters/tool-call/index.js';
import { Agent } from './support.js';

/**
 * A check run inside a server's container that ends in a stack trace: the frames name files of the
 * server's libraries.
 */
const CHECK_WITH_TRACE = {
  text: [
    '2025-05-22T13:14:37.649Z  INFO 1 --- [0.0-8080-exec-1] o.apache.coyote.http11.Http11Processor : Error parsing HTTP request header',
    'java.lang.IllegalArgumentException: Invalid character found in method name. HTTP method names must be tokens',
    '        at org.apache.coyote.http11.Http11InputBuffer.parseRequestLine(Http11InputBuffer.java:403) ~[tomcat-embed-core-10.1.40.jar!/:na]',
    '        at org.apache.coyote.http11.Http11Processor.service(Http11Processor.java:271) ~[tomcat-embed-core-10.1.40.jar!/:na]',
    '        at java.base/java.lang.Thread.run(Thread.java:833) ~[na:na]',
  ].join('\n'),
  isError: true,
};

describe('a command of unknown effects on what a failed command acted on', () => {
  it('gives a failed command its retry after a command of unknown effects that names the same operand', () => {
    const agent = new Agent();
    agent.call(
      'run_terminal_cmd',
      { command: 'docker exec shop-app java -jar /app/healthcheck.jar' },
      CHECK_WITH_TRACE,
    );
    expect(
      agent.check('run_terminal_cmd', { command: 'docker exec shop-app java -jar /app/healthcheck.jar' })
        .verdict,
    ).toBe('block');
    agent.call('run_terminal_cmd', { command: 'docker restart shop-app' }, 'shop-app');
    expect(
      agent.check('run_terminal_cmd', { command: 'docker exec shop-app java -jar /app/healthcheck.jar' })
        .verdict,
    ).toBe('allow');
  });

  it('keeps the ban after a command of unknown effects on another operand', () => {
    const agent = new Agent();
    agent.call(
      'run_terminal_cmd',
      { command: 'docker exec shop-app java -jar /app/healthcheck.jar' },
      CHECK_WITH_TRACE,
    );
    agent.call('run_terminal_cmd', { command: 'docker restart shop-nginx' }, 'shop-nginx');
    expect(
      agent.check('run_terminal_cmd', { command: 'docker exec shop-app java -jar /app/healthcheck.jar' })
        .verdict,
    ).toBe('block');
  });

  it('reads the command of a ban for its operands once, however many commands of unknown effects follow', () => {
    const adapter = createToolCallAdapter();
    const workspace = adapter.workspace;
    if (workspace?.operandsIn === undefined) throw new Error('the tool-call adapter reads operands');
    const read: string[] = [];
    const agent = new Agent({
      adapter: {
        ...adapter,
        workspace: {
          ...workspace,
          operandsIn: (command: string) => {
            read.push(command);
            return workspace.operandsIn?.(command) ?? [];
          },
        },
      },
    });
    const failed = 'docker exec shop-app java -jar /app/healthcheck.jar';
    agent.call('run_terminal_cmd', { command: failed }, CHECK_WITH_TRACE);
    for (const service of ['shop-nginx', 'shop-db', 'shop-cache'])
      agent.call('run_terminal_cmd', { command: `docker restart ${service}` }, service);
    expect(read.filter((command) => command === failed)).toHaveLength(1);
    expect(agent.check('run_terminal_cmd', { command: failed }).verdict).toBe('block');
  });

  it('relieves every failed command sharing the operand, in the order they were learned, and each only once', () => {
    const agent = new Agent();
    const health = 'docker exec shop-app java -jar /app/healthcheck.jar';
    const probe = 'docker exec shop-app java -jar /app/probe.jar';
    agent.call('run_terminal_cmd', { command: health }, CHECK_WITH_TRACE);
    agent.call('run_terminal_cmd', { command: probe }, CHECK_WITH_TRACE);
    const restarted = agent.call('run_terminal_cmd', { command: 'docker restart shop-app' }, 'shop-app');
    expect(restarted.record?.liftedConstraints.map((constraint) => constraint.target)).toEqual([
      health,
      probe,
    ]);
    const again = agent.call('run_terminal_cmd', { command: 'docker restart shop-app' }, 'shop-app');
    expect(again.record?.liftedConstraints).toEqual([]);
  });
});
