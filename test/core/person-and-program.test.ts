import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const NVM = 'export NVM_DIR="$HOME/.nvm"\n[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"\nnvm use 22\n';
const LOGIN = { command: `${NVM}openclaw channels login --channel whatsapp` };
const HEAD =
  "manpath: can't set the locale; make sure $LC_* and $LANG are correct\nNow using node v22.22.0 (npm v10.9.4)\n\n🦞 OpenClaw 2026.2.21-2 (35a57bc)\n";
const LOGGED_OUT = {
  isError: true,
  text: `${HEAD}\nWaiting for WhatsApp connection...\nWhatsApp session logged out. Run: openclaw channels login\nCleared WhatsApp Web credentials.\nWhatsApp reported the session is logged out. Cleared cached web session; please rerun openclaw channels login and scan the QR again.\nChannel login failed: Error: Session logged out; cache cleared. Re-run login.`,
};
const GATEWAY = { command: `${NVM}openclaw gateway --port 18789 --allow-unconfigured` };
const SYNTAX = {
  isError: true,
  text: `${HEAD}\nGateway failed to start: SyntaxError: Unexpected reserved word`,
};

describe('a sign-in that waits for a person', () => {
  it('lets a channel login that failed run again, since the person may scan its code before the next run', () => {
    const agent = new Agent();
    agent.call('run_shell_command', LOGIN, LOGGED_OUT);
    expect(agent.check('run_shell_command', LOGIN).verdict).toBe('allow');
  });

  it('lets a device-code sign-in that expired run again', () => {
    const agent = new Agent();
    const login = { command: 'az login --use-device-code --tenant contoso.onmicrosoft.com' };
    const expired = {
      isError: true,
      text: "ERROR: AADSTS70020: The provided value for the input parameter 'device_code' is not valid. This device code has expired.\nTrace ID: 0f6b6c1e-2a8e-4a43-9a55-5a1d1a7b6e00\nCorrelation ID: 6b1f0c3e-8d4e-4b53-a0a8-0b3c9e2d7f11\nTimestamp: 2026-02-22 14:31:05Z",
    };
    agent.call('Bash', login, expired);
    expect(agent.check('Bash', login).verdict).toBe('allow');
  });

  it('blocks a sign-in that failed twice the same way with nothing changed', () => {
    const agent = new Agent();
    agent.call('run_shell_command', LOGIN, LOGGED_OUT);
    agent.call('run_shell_command', LOGIN, LOGGED_OUT);
    expect(agent.check('run_shell_command', LOGIN).verdict).toBe('block');
  });

  it('still blocks a command that only mentions a login page in its arguments after one failure', () => {
    const agent = new Agent();
    const fetch = { command: 'curl -sf https://intranet.example.com/login/status.json -o status.json' };
    const refused = { isError: true, text: 'curl: (22) The requested URL returned error: 404' };
    agent.call('Bash', fetch, refused);
    expect(agent.check('Bash', fetch).verdict).toBe('block');
  });
  it('still blocks a container run with a device option, no sign-in, after one failure', () => {
    const agent = new Agent();
    const flash = { command: 'docker run --rm --device /dev/ttyACM0 esphome/esphome run badge.yaml' };
    const refused = {
      isError: true,
      text: "Failed config\n\nesp32: [source badge.yaml:3]\n  \n  Unknown value 'esp32-s3-devkit', did you mean 'esp32-s3-devkitc-1'?\n  board: esp32-s3-devkit",
    };
    agent.call('Bash', flash, refused);
    expect(agent.check('Bash', flash).verdict).toBe('block');
  });
});

describe("a change of a program's own files", () => {
  it('lets a command run again after an edit of the installed package of the program it runs', () => {
    const agent = new Agent();
    agent.call('run_shell_command', GATEWAY, SYNTAX);
    expect(agent.check('run_shell_command', GATEWAY).verdict).toBe('block');
    agent.call(
      'run_shell_command',
      {
        command:
          "sudo sed -i 's/await sock.requestPairingCode/sock.requestPairingCode/' /home/jules/.nvm/versions/node/v22.22.0/lib/node_modules/openclaw/dist/session-CmKsb-OS.js",
      },
      '(empty)',
    );
    expect(agent.check('run_shell_command', GATEWAY).verdict).toBe('allow');
  });

  it('lets a command run again after a write in the settings folder of the program it runs', () => {
    const agent = new Agent();
    agent.call('run_shell_command', GATEWAY, SYNTAX);
    expect(agent.check('run_shell_command', GATEWAY).verdict).toBe('block');
    agent.call(
      'write_file',
      {
        file_path: '/home/jules/.openclaw/openclaw.json',
        content: '{\n  "gateway": { "mode": "local" }\n}\n',
      },
      'Successfully overwrote file: /home/jules/.openclaw/openclaw.json.',
    );
    expect(agent.check('run_shell_command', GATEWAY).verdict).toBe('allow');
  });

  it("keeps a command's ban after an edit of another program's installed package", () => {
    const agent = new Agent();
    agent.call('run_shell_command', GATEWAY, SYNTAX);
    agent.call(
      'run_shell_command',
      {
        command: "sed -i 's/a/b/' /home/jules/.nvm/versions/node/v22.22.0/lib/node_modules/prettier/index.js",
      },
      '(empty)',
    );
    expect(agent.check('run_shell_command', GATEWAY).verdict).toBe('block');
  });
});
