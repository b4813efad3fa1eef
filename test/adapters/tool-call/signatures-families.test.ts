/**
 * The blame catalogue as data: each family's table recognises its own failures, with the blame the
 * labelling rules give them. One realistic text per family.
 */
import { describe, expect, it } from 'vitest';
import { FAMILIES, TEXT_RULES } from '../../../src/adapters/tool-call/signatures.js';
import { failureOf } from './helpers.js';

const blameOf = (text: string, tool = 'Bash') => failureOf(tool, { command: 'run' }, text)?.blame;

describe('the family tables', () => {
  it('hold only patterns that compile, each kind joined into one rule', () => {
    for (const [family, table] of Object.entries(FAMILIES)) {
      for (const [kind, words] of Object.entries(table)) {
        for (const source of words?.patterns ?? []) {
          expect(() => new RegExp(source, 'm'), `${family}.${kind}: ${source}`).not.toThrow();
        }
        if ((words?.patterns.length ?? 0) > 0)
          expect(words?.hints.length, `${family}.${kind} has hints`).toBeGreaterThan(0);
      }
    }
    expect(new Set(TEXT_RULES).size).toBe(TEXT_RULES.length);
  });
});

describe('each family recognises its own failures', () => {
  it('network: a refused connection is the environment’s', () => {
    expect(blameOf('curl: (7) Failed to connect to 127.0.0.1 port 5432 after 0 ms: Connection refused')).toBe(
      'harness_fault',
    );
  });

  it('TLS: an untrusted certificate is the environment’s', () => {
    expect(blameOf('curl: (60) SSL certificate problem: self-signed certificate')).toBe('harness_fault');
  });

  it('HTTP: a 503 is the environment’s and a 404 the agent’s', () => {
    expect(
      blameOf(
        'requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: http://127.0.0.1:8080/v1',
      ),
    ).toBe('harness_fault');
    expect(
      blameOf(
        'requests.exceptions.HTTPError: 404 Client Error: Not Found for url: http://127.0.0.1:8080/v1/items/9',
      ),
    ).toBe('agent_failure');
  });

  it('HTTP: a status carried by an exception name counts as a status', () => {
    expect(blameOf('github3.exceptions.GitHubError: 401 Bad credentials')).toBe('harness_fault');
  });

  it('services: a spent quota is the environment’s', () => {
    expect(
      blameOf('Error: 429 You exceeded your current quota, please check your plan and billing details.'),
    ).toBe('harness_fault');
  });

  it('services: a lookup by id that found nothing is the agent’s', () => {
    expect(blameOf('Error: No deployment found with ID: dpl_8fK2x9', 'get_deployment')).toBe('agent_failure');
  });

  it('filesystem: a missing file is the agent’s and a full disk the environment’s', () => {
    expect(blameOf('cat: notes.md: No such file or directory')).toBe('agent_failure');
    expect(blameOf("cp: error writing '/mnt/full/a.bin': No space left on device")).toBe('harness_fault');
  });

  it('filesystem: a quoted file that cannot be opened is the agent’s', () => {
    expect(blameOf('Error: cannot open "missing.csv"', 'sqlite')).toBe('agent_failure');
  });

  it('host: a process the OOM killer stopped is the environment’s', () => {
    expect(blameOf('Killed signal terminated program cc1plus')).toBe('harness_fault');
  });

  it('host: a compiler pass stopped by a signal named in the system’s language is the environment’s', () => {
    const portuguese =
      '[ 53%] Linking CXX executable tfs\nc++: fatal error: Morto signal terminated program lto1\ncompilation terminated.\nlto-wrapper: fatal error: /usr/bin/c++ returned 1 exit status\nmake: *** [Makefile:84: all] Error 2';
    expect(blameOf(portuguese)).toBe('harness_fault');
  });

  it('host: a status of 137 printed in words is a process killed under the call, the environment’s', () => {
    const devContainer =
      '[4618 ms] Exit code 137\n[4618 ms] Keep-alive process ended.\n[4622 ms] Shell server terminated (code: 137, signal: null)';
    expect(blameOf(devContainer)).toBe('harness_fault');
    expect(blameOf('Exit code 137')).toBe('harness_fault');
  });

  it('host: a status that only holds 137 among its digits is no kill', () => {
    expect(blameOf('Exit code 1370')).not.toBe('harness_fault');
  });

  it('environments: a program built without what the call asks of it is the environment’s', () => {
    const curl =
      '==> Downloading https://ghcr.io/v2/homebrew/core/gettext/blobs/sha256:1f4d\ncurl: (4) A requested feature, protocol or option was not found built-in in this libcurl due to a build-time decision.\nError: Failed to download resource "gettext"';
    expect(blameOf(curl, 'Bash')).toBe('harness_fault');
    expect(blameOf('ERROR: Python was built without SSL support', 'Bash')).toBe('harness_fault');
  });

  it('network: an answer whose body broke off or came back unreadable is the environment’s', () => {
    const rustup =
      "info: downloading component 'rust-docs'\nerror: component download failed for rust-docs-x86_64-unknown-linux-gnu: error decoding response body";
    expect(blameOf(rustup, 'Bash')).toBe('harness_fault');
  });

  it('network: a package feed whose index could not be read is the environment’s, not one that answered with a status', () => {
    const unreachable =
      'App.csproj : error NU1301: Unable to load the service index for source https://api.nuget.org/v3/index.json. [App.sln]';
    expect(blameOf(unreachable, 'Bash')).toBe('harness_fault');
    const refused =
      'error NU1301: Unable to load the service index for source https://pkgs.example.com/v3/index.json.\n  Response status code does not indicate success: 404 (Not Found).';
    expect(blameOf(refused, 'Bash')).toBe('agent_failure');
  });

  it('tool protocols: a plugin that did not answer its host’s call is the environment’s', () => {
    const terraform =
      'Error: Plugin did not respond\n\nThe plugin encountered an error, and failed to respond to the\nplugin6.(*GRPCProvider).ApplyResourceChange call. The plugin logs may contain\nmore details.';
    expect(blameOf(terraform, 'Bash')).toBe('harness_fault');
  });

  it('shells: an argument parser refusing an argument it did not expect is the agent’s', () => {
    const clap =
      "error: Found argument 'xdg' which wasn't expected, or isn't valid in this context\n\nUSAGE:\n    cargo download [OPTIONS] <CRATE[=VERSION]>\n\nFor more information try --help";
    expect(blameOf(clap, 'Bash')).toBe('agent_failure');
  });

  it('shells: a command given fewer arguments than it needs is the agent’s', () => {
    expect(blameOf('Error: This command needs 2 arguments: release name, chart path', 'Bash')).toBe(
      'agent_failure',
    );
    expect(blameOf('Error: accepts 1 arg(s), received 0', 'Bash')).toBe('agent_failure');
  });

  it('shells: a parameter given an empty value it cannot take is the agent’s', () => {
    const stripe =
      "You passed an empty string for 'line_items[0][price]'. We assume empty values are an attempt to unset a parameter; however 'line_items[0][price]' cannot be unset.";
    expect(blameOf(stripe)).toBe('agent_failure');
  });

  it('code: a Kotlin compiler diagnostic is the agent’s, in either of the compiler’s formats', () => {
    expect(
      blameOf('e: /src/main/kotlin/App.kt: (38, 40): Unresolved reference: sourceAsLineNumber', 'Bash'),
    ).toBe('agent_failure');
    expect(
      blameOf("e: file:///src/main/kotlin/App.kt:38:40 Unresolved reference 'sourceAsLineNumber'.", 'Bash'),
    ).toBe('agent_failure');
  });

  it('environments: a machine whose policy or driver stops what the call runs is the environment’s', () => {
    const policy =
      'File C:\\actions-runner\\_work\\_temp\\build.ps1 cannot be loaded because running scripts is disabled on this system. For more information, see about_Execution_Policies.';
    expect(blameOf(policy, 'Bash')).toBe('harness_fault');
    const driver =
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.";
    expect(blameOf(driver, 'Bash')).toBe('harness_fault');
    expect(blameOf('<3>WSL (13) ERROR: UtilAcceptVsock:250: accept4 failed 110', 'Bash')).toBe(
      'harness_fault',
    );
  });

  it('shells: a tool asking for another call first is the agent’s call out of order', () => {
    const text =
      'Error: No open pages available. Use the "browser_navigate" tool to navigate to a page first.';
    expect(blameOf(text, 'mcp__playwright__browser_click')).toBe('agent_failure');
  });

  it('services: a name a container of them does not hold is the agent’s', () => {
    const text =
      'xcodebuild: error: The workspace named "Shop" does not contain a scheme named "Shopp". The "-list" option can be used to find the names of the schemes in the workspace.';
    expect(blameOf(text, 'Bash')).toBe('agent_failure');
  });

  it('tool protocols: a tool whose own declaration its host cannot use is the environment’s, whatever words frame it', () => {
    const text =
      "Invalid argument: MCP tool 'mcp0_scene_animation' has an invalid schema: In context=('properties', 'events'), array schema missing items.";
    expect(blameOf(text, 'mcp0_scene_animation')).toBe('harness_fault');
  });

  it('code: a Gradle task that stopped on the compiler’s errors is the agent’s', () => {
    const gradle = [
      'e: warnings found and -Werror specified',
      '',
      'FAILURE: Build failed with an exception.',
      '',
      '* What went wrong:',
      "Execution failed for task ':app:compileDebugKotlin'.",
      '> Compilation error. See log for more details',
      '',
      'BUILD FAILED in 14s',
    ].join('\n');
    expect(blameOf(gradle, 'Bash')).toBe('agent_failure');
  });

  it('code: an Elixir compile error is the agent’s, whatever its file is named', () => {
    const elixir = [
      '== Compilation error in file lib/relay/connection.ex ==',
      '** (CompileError) lib/relay/connection.ex:31: undefined function backoff/2',
      '    (elixir 1.15.7) expanding macro: Kernel.def/2',
    ].join('\n');
    expect(blameOf(elixir, 'Bash')).toBe('agent_failure');
  });

  it('HTTP: a status given in parentheses after its name is read as that status', () => {
    expect(blameOf('Error: SSE error: Non-200 status code (503)', 'mcp__tracker__list_issues')).toBe(
      'harness_fault',
    );
    expect(blameOf('request rejected: status code(422)', 'mcp__tracker__create_issue')).toBe('agent_failure');
  });

  it('locales: bash’s syntax error in another language is the agent’s', () => {
    expect(blameOf("/bin/sh: -c: línea 1: error sintáctico cerca del elemento inesperado `)'")).toBe(
      'agent_failure',
    );
    expect(blameOf("bash: -c: 行 1: 予期しないトークン `(' 周辺に構文エラーがあります")).toBe(
      'agent_failure',
    );
    expect(blameOf('bash: Zeile 3: Syntaxfehler: Unerwartetes Dateiende.')).toBe('agent_failure');
  });

  it('tool protocols: a hook of the host’s that failed to run around the call is the environment’s', () => {
    expect(blameOf('PreToolUse:Bash hook error — /bin/sh: 1: node: not found', 'Bash')).toBe('harness_fault');
    expect(blameOf('PostToolUse:Edit hook error: Failed with non-blocking status code 1', 'Edit')).toBe(
      'harness_fault',
    );
  });

  it('package managers: a name and range Yarn finds no candidate for is the agent’s', () => {
    expect(blameOf('➤ YN0001: │ Error: reactt-dom@npm:^18.9.0: No candidates found', 'Bash')).toBe(
      'agent_failure',
    );
  });

  it('services: a thing not found named in one word is the agent’s, a host not found is not', () => {
    expect(blameOf('Error: ElementNotFound("[ref=e42]")', 'browser_click')).toBe('agent_failure');
    expect(blameOf("KeyNotFoundException: The given key 'tenant-9' was not present", 'Bash')).toBe(
      'agent_failure',
    );
    expect(blameOf('SocketException: HostNotFound', 'Bash')).not.toBe('agent_failure');
  });

  it('tool protocols: a framework’s word for a tool the model named that it does not have is the agent’s', () => {
    expect(
      blameOf(
        "AI_NoSuchToolError: Model tried to call unavailable tool 'web_search'. Available tools: lookup.",
        'web_search',
      ),
    ).toBe('agent_failure');
    const kernel =
      "The plugin collection does not contain a plugin and/or function with the specified names. Plugin name - 'Billing', function name - 'Refund'.";
    expect(blameOf(kernel, 'Billing-Refund')).toBe('agent_failure');
  });

  it('tool protocols: a skill the host’s tool does not have is the agent’s', () => {
    expect(blameOf('<tool_use_error>Unknown skill: release-notes</tool_use_error>', 'Skill')).toBe(
      'agent_failure',
    );
  });

  it('tool protocols: a model API refusing a tool call the conversation holds is the environment’s', () => {
    expect(blameOf('messages.7.content.2.tool_use.input: Input should be an object', 'Read')).toBe(
      'harness_fault',
    );
    expect(
      blameOf('The format of the value at messages.3.content.0.toolUse.input is invalid.', 'run_query'),
    ).toBe('harness_fault');
  });

  it('tool protocols: a tool declaration its host could not validate is the environment’s, a call’s input is not', () => {
    const declaration =
      'Failed to validate tool mcp_warehouse_run-sql: Error: tool parameters array type must have items';
    expect(blameOf(declaration, 'mcp_warehouse_run-sql')).toBe('harness_fault');
    expect(blameOf('Failed to validate tool input: expected string, received number', 'run-sql')).not.toBe(
      'harness_fault',
    );
  });

  it('tool protocols: a server that offers no tools, or whose list of them could not be had, is the environment’s', () => {
    expect(blameOf('Error [MCPClientError]: Server does not support tools', 'mcp__docs__search')).toBe(
      'harness_fault',
    );
    expect(
      blameOf("Error retrieving tool list from MCP server: 'inventory'. Http status code: 424", 'list_items'),
    ).toBe('harness_fault');
    expect(
      blameOf('MCP tool list_items call failed (ClosedResourceError), attempting to reconnect', 'list_items'),
    ).toBe('harness_fault');
  });

  it('tool protocols: a value the call left empty is the agent’s', () => {
    expect(blameOf('{"code": -32603, "message": "project name cannot be empty"}', 'create_project')).toBe(
      'agent_failure',
    );
  });

  it('sandboxes: a shell tool refusing a form of command for security is the agent’s', () => {
    const refusal =
      'Error executing tool run_shell_command: Command substitution using $(), <(), or >() is not allowed for security reasons';
    expect(blameOf(refusal, 'run_shell_command')).toBe('agent_failure');
  });

  it('sandboxes: a Docker client that could not reach its daemon is the environment’s', () => {
    const text =
      'docker: error during connect: Head "http://%2F%2F.%2Fpipe%2Fdocker_engine/_ping": open //./pipe/docker_engine: The system cannot find the file specified.';
    expect(blameOf(text, 'Bash')).toBe('harness_fault');
  });

  it('VCS: an unknown ref is the agent’s and a held index lock the environment’s', () => {
    expect(blameOf("error: pathspec 'feature/x' did not match any file(s) known to git")).toBe(
      'agent_failure',
    );
    expect(
      blameOf(
        "fatal: Unable to create '/w/.git/index.lock': File exists.\n\nAnother git process seems to be running in this repository",
      ),
    ).toBe('harness_fault');
  });

  it('package managers: an unknown package is the agent’s', () => {
    expect(blameOf('npm error 404 Not Found - GET https://registry.npmjs.org/lefpad - Not found')).toBe(
      'agent_failure',
    );
  });

  it('databases: an unknown column is the agent’s and a locked database the environment’s', () => {
    expect(blameOf('Parse error: no such column: nme')).toBe('agent_failure');
    expect(blameOf('Runtime error: database is locked (5)')).toBe('harness_fault');
  });

  it('databases: redis error replies are read by their class', () => {
    expect(blameOf('WRONGTYPE Operation against a key holding the wrong kind of value')).toBe(
      'agent_failure',
    );
    expect(blameOf('NOAUTH Authentication required.')).toBe('harness_fault');
    expect(blameOf('LOADING Redis is loading the dataset in memory')).toBe('harness_fault');
    expect(blameOf("(error) READONLY You can't write against a read only replica.")).toBe('harness_fault');
    expect(
      blameOf('(error) MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no.'),
    ).toBe('harness_fault');
  });

  it('databases: a program’s log line that starts with a word a redis reply class spells is no reply', () => {
    const composer =
      'Loading composer repositories with package information\nInstalling dependencies (including require-dev) from lock file\nYour requirements could not be resolved to an installable set of packages.\n\n  Problem 1\n    - acme/billing-plugin 2.1.0 requires composer-plugin-api ^2.0 -> no matching package found.\n';
    expect(blameOf(composer)).not.toBe('harness_fault');
  });

  it('databases: a log line whose padded level spells a redis reply class is no reply', () => {
    expect(
      blameOf(
        'ERR  PuppetBridge start() Exception: TimeoutError: Navigation Timeout Exceeded: 30000ms exceeded',
      ),
    ).toBe('harness_fault');
    expect(blameOf("ERR unknown command 'HGETX', with args beginning with: 'cart:9'")).toBe('agent_failure');
  });

  it('services: an API key the session lacks, named as its variable, is the environment’s', () => {
    expect(blameOf('ERROR: search failed: no BRAVE_API_KEY is provided in the environment')).toBe(
      'harness_fault',
    );
    expect(blameOf('Error: ANTHROPIC_API_KEY is not set')).toBe('harness_fault');
    expect(blameOf('partition_key is required')).toBe('agent_failure');
  });

  it('services: a bot refused a channel it was not given, or a token of other scopes, is the environment’s', () => {
    expect(blameOf('DiscordAPIError: Missing Access', 'send_message')).toBe('harness_fault');
    expect(blameOf('Scope has changed from "calendar.readonly" to "calendar.events"', 'list_events')).toBe(
      'harness_fault',
    );
  });

  it('services: a value the call gave that matched nothing is the agent’s', () => {
    expect(blameOf('No connected account matched "acct_3f1c" for toolkit "crm".', 'run_action')).toBe(
      'agent_failure',
    );
  });

  it('HTTP: a status in parentheses with its reason after it is read as that status', () => {
    expect(blameOf('Google API error (400 required): Missing end time.', 'create_event')).toBe(
      'agent_failure',
    );
    expect(blameOf('request failed (503 backendError)', 'create_event')).toBe('harness_fault');
  });

  it('tool protocols: a checker that refused the input it validated is the agent’s, a certificate it could not check is not', () => {
    expect(
      blameOf(
        'error: error validating "deploy/api.yaml": error validating data: [metadata.name not set]',
        'Bash',
      ),
    ).toBe('agent_failure');
    expect(blameOf('ERROR: Validate failed: 2 migrations have failed validation', 'Bash')).toBe(
      'agent_failure',
    );
    expect(
      blameOf('x509: error validating server certificate for registry.internal.example', 'Bash'),
    ).not.toBe('agent_failure');
  });

  it('host: a runtime that reached its own memory limit is the environment’s', () => {
    const text =
      'PHP Fatal error:  Allowed memory size of 536870912 bytes exhausted (tried to allocate 20480 bytes) in /srv/app/vendor/autoload_real.php on line 41';
    expect(blameOf(text, 'Bash')).toBe('harness_fault');
  });

  it('environments: an SDK of the version a project pins that the machine lacks is the environment’s', () => {
    const text =
      'A compatible .NET SDK version for global.json version: [8.0.404] from [/home/dev/shop/global.json] was not found.';
    expect(blameOf(text, 'Bash')).toBe('harness_fault');
  });

  it('network: a package index out of reach, or a firewall that refused the connection, is the environment’s', () => {
    expect(
      blameOf(
        "Warning: unable to access index for repository https://cloud.r-project.org/src/contrib:\n  cannot open URL 'https://cloud.r-project.org/src/contrib/PACKAGES'",
        'Bash',
      ),
    ).toBe('harness_fault');
    expect(blameOf('Firewall rules blocked the connection to pkgs.example.net (dns block)', 'Bash')).toBe(
      'harness_fault',
    );
  });

  it('network: a package index at a URL without a scheme a client knows is the agent’s', () => {
    const text =
      "Error: unable to access index for repository mirror/src/contrib:\n  scheme not supported in URL 'mirror/src/contrib/PACKAGES'";
    expect(blameOf(text, 'Bash')).toBe('agent_failure');
  });

  it('package managers: requirements no version can satisfy are the agent’s', () => {
    expect(
      blameOf(
        'Error: Could not satisfy dependency luasocket >= 4.0: only 3.1.0-1 is provided by the system',
        'Bash',
      ),
    ).toBe('agent_failure');
  });

  it('network: a stream’s words that only wrap the error after them are not the failure', () => {
    const text =
      "Chat stream error Error [AI_NoSuchToolError]: Model tried to call unavailable tool 'lookup_order'. Available tools: search_catalog, get_invoice.";
    expect(blameOf(text, 'lookup_order')).toBe('agent_failure');
    expect(blameOf('stream error: connection reset by peer', 'lookup_order')).toBe('harness_fault');
  });

  it('VCS: a commit that could not be applied, conflicts left, a file over the host’s limit or a submodule without an address are the agent’s', () => {
    expect(blameOf('error: could not apply 4f2c9e1... add the export endpoint', 'Bash')).toBe(
      'agent_failure',
    );
    expect(blameOf('Commit failed due to unresolved conflicts in src/api/orders.ts', 'git_commit')).toBe(
      'agent_failure',
    );
    expect(
      blameOf(
        "remote: error: File dumps/orders.sql is 140.20 MB; this exceeds GitHub's file size limit of 100.00 MB\nremote: error: GH001: Large files detected.",
        'Bash',
      ),
    ).toBe('agent_failure');
    expect(blameOf("fatal: No url found for submodule path 'vendor/sdk' in .gitmodules", 'Bash')).toBe(
      'agent_failure',
    );
  });

  it('services: an account over its quota, or a command line asking for its credential’s variable, is the environment’s', () => {
    expect(blameOf('batch response: This repository is over its data quota.', 'Bash')).toBe('harness_fault');
    expect(
      blameOf(
        'gh: To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable.',
        'Bash',
      ),
    ).toBe('harness_fault');
  });

  it('code: a formatter’s check and an import no module answers are the agent’s', () => {
    expect(
      blameOf(
        '[warn] src/cart.ts\n[warn] Code style issues found in the above file. Run Prettier with --write to fix.',
        'Bash',
      ),
    ).toBe('agent_failure');
    expect(
      blameOf(
        '[plugin:vite:import-analysis] Failed to resolve import "@/ui/badge" from "src/App.tsx". Does the file exist?',
        'Bash',
      ),
    ).toBe('agent_failure');
  });

  it('environments: an SDK whose licences nobody accepted, or a toolchain download that came damaged, is the environment’s', () => {
    expect(
      blameOf(
        '> Failed to install the following SDK packages as some licences have not been accepted.',
        'Bash',
      ),
    ).toBe('harness_fault');
    expect(
      blameOf('Error: failed to bundle project\n\nCaused by:\n    hash mismatch of downloaded file', 'Bash'),
    ).toBe('harness_fault');
  });

  it('services: a device or an installed app in a state the call does not fit is the agent’s, a device out of room is not', () => {
    expect(blameOf('Unable to boot device in current state: Booted', 'Bash')).toBe('agent_failure');
    expect(
      blameOf(
        'adb: failed to install shop.apk: Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code 41 is older than current 42]',
        'Bash',
      ),
    ).toBe('agent_failure');
    expect(blameOf('Failed to finalize session : INSTALL_FAILED_INSUFFICIENT_STORAGE', 'Bash')).toBe(
      'harness_fault',
    );
  });

  it('shells: a workspace tool run outside any workspace, or a call naming no device where several answer, is the agent’s', () => {
    expect(
      blameOf('FATAL ERROR: no west workspace found from "/home/dev/fw"; "west build" requires one.', 'Bash'),
    ).toBe('agent_failure');
    expect(blameOf('adb: error: more than one device/emulator', 'Bash')).toBe('agent_failure');
  });

  it('code: a formatter that would reformat files, or a server that could not import the module it serves, is the agent’s', () => {
    expect(
      blameOf('would reformat /srv/shop/api/orders.py\nwould reformat /srv/shop/api/cart.py', 'Bash'),
    ).toBe('agent_failure');
    expect(blameOf('ERROR:    Error loading ASGI app. Could not import module "service".', 'Bash')).toBe(
      'agent_failure',
    );
  });

  it('environments: an interpreter the machine has but has not switched on, or one built without a system library, is the environment’s', () => {
    const inactive =
      "pyenv: python3.11: command not found\n\nThe `python3.11' command exists in these Python versions:\n  3.11.9";
    expect(blameOf(inactive, 'Bash')).toBe('harness_fault');
    expect(
      blameOf('ERROR: The Python ssl extension was not compiled. Missing the OpenSSL lib?', 'Bash'),
    ).toBe('harness_fault');
  });

  it('shells: a command that cannot tell which of several to act on, or a part its package lacks, is the agent’s', () => {
    expect(
      blameOf(
        'error: `cargo run` could not determine which binary to run. Use the `--bin` option to specify a binary.',
        'Bash',
      ),
    ).toBe('agent_failure');
    expect(
      blameOf('error: Package `reqwest v0.12.4` does not have these features: `rustls-native`', 'Bash'),
    ).toBe('agent_failure');
  });

  it('code: Go’s diagnostics without a column, a Go linter’s finding and Cargo’s resolver are the agent’s', () => {
    expect(blameOf('./cmd/serve.go:41: undefined: newRouter', 'Bash')).toBe('agent_failure');
    expect(blameOf('pkg/api/handler.go:88::error: composite literal uses unkeyed fields (vet)', 'Bash')).toBe(
      'agent_failure',
    );
    expect(blameOf('error: failed to select a version for `openssl-sys`.', 'Bash')).toBe('agent_failure');
  });

  it('environments: a machine without the terminal, key, driver, device, container engine or command line a tool needs is the environment’s', () => {
    for (const text of [
      'gpg: signing failed: Inappropriate ioctl for device',
      'gpg: no default secret key: No secret key',
      'RuntimeError: Found no NVIDIA driver on your system.',
      'HIP error: invalid device function',
      'error: no container engine found; install docker or podman',
      'ERROR: vault cli not found',
    ])
      expect({ text, blame: blameOf(text, 'Bash') }).toEqual({ text, blame: 'harness_fault' });
  });

  it('services: a cloud client without credentials is the environment’s, a name the account does not hold the agent’s', () => {
    expect(
      blameOf(
        'google.auth.exceptions.DefaultCredentialsError: Could not automatically determine credentials.',
        'Bash',
      ),
    ).toBe('harness_fault');
    expect(blameOf('"Payments" doesn\'t seem to be a vault in this account.', 'Bash')).toBe('agent_failure');
  });

  it('sandboxes: a path outside the allowed directories is the agent’s', () => {
    expect(
      blameOf(
        'Error: Access denied - path outside allowed directories: /etc/passwd not in /home/dev/w',
        'read_text_file',
      ),
    ).toBe('agent_failure');
  });

  it('sandboxes: a Docker daemon that is not running is the environment’s', () => {
    expect(
      blameOf(
        'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
      ),
    ).toBe('harness_fault');
  });

  it('tool protocols: an unknown tool is the call’s and a closed connection the environment’s', () => {
    expect(blameOf('MCP error -32601: Method not found', 'mcp__x__y')).toBe('agent_failure');
    expect(blameOf('MCP error -32000: Connection closed', 'mcp__x__y')).toBe('harness_fault');
  });

  it('tool protocols: a model API refusing the tool turns of the conversation the host sent is the environment’s', () => {
    const orphan =
      '✕ [API Error: 400 <400> InternalError.Algo.InvalidParameter: messages with role "tool" must be a response to a preceeding message with "tool_calls".]';
    expect(blameOf(orphan, 'task')).toBe('harness_fault');
    const unanswered =
      "Error code: 400 - {'error': {'message': \"An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_9Qw2\", 'type': 'invalid_request_error'}}";
    expect(blameOf(unanswered, 'task')).toBe('harness_fault');
  });

  it('sandboxes: a browser the browser tool drives that is not installed is the environment’s', () => {
    const missing =
      'Error: browserType.launch: Chromium distribution \'chrome\' is not found at /opt/google/chrome/chrome\nRun "npx playwright install chrome"';
    expect(blameOf(missing, 'browser_navigate')).toBe('harness_fault');
  });

  it('edits: a replacement whose text is not in the file is the agent’s', () => {
    expect(blameOf('<tool_use_error>String to replace not found in file.</tool_use_error>', 'Edit')).toBe(
      'agent_failure',
    );
  });

  it('shells: an unknown option is the agent’s, a bare exit status nobody’s', () => {
    expect(blameOf("ls: unrecognized option '--colour=never'")).toBe('agent_failure');
    expect(blameOf('Command failed with exit code 1')).toBe('unknown');
  });

  it('code: a parser naming what it expected and found is the agent’s', () => {
    expect(blameOf("error: Expected '@', '[', comment, or identifier, but found '*'")).toBe('agent_failure');
  });

  it('tests: a failing test run is the agent’s whatever its test names say', () => {
    expect(
      blameOf(' FAIL  src/retry.test.ts > retries after ECONNRESET\n Tests  1 failed | 4 passed (5)'),
    ).toBe('agent_failure');
  });

  it('locales: a refused connection in German is the environment’s', () => {
    expect(blameOf('curl: (7) Failed to connect: Verbindungsaufbau abgelehnt')).toBe('harness_fault');
  });
});
