/**
 * Sandboxes, containers, daemons and browsers: what runs the agent’s tools, and where it may act.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const SANDBOXES: FamilyTable = {
  outsideSandbox: {
    patterns: [
      '\\bpath outside (?:of )?(?:the )?allowed\\b',
      '\\boutside (?:of )?(?:the |your |any |current )?(?:allowed|permitted|accessible|workspace|sandbox|project|working director|root director|repository root)',
      '\\bresolves? outside (?:of )?(?:the )?(?:allowed|workspace|sandbox|project|root)\\b',
      '\\b(?:path )?(?:escapes|is outside) (?:of )?(?:the )?(?:workspace|sandbox|project|allowed|root)\\b',
      '\\b(?:not in|not within|not under|not inside) (?:one of )?(?:the |any )?(?:allowed|permitted|workspace|sandbox)(?: (?:director|folder|root|path)\\w*)?\\b',
      '\\bmust be (?:within|inside|under|in) (?:one of )?(?:the )?(?:allowed|workspace|project|sandbox|working)\\b',
      '\\bwas blocked\\. for security\\b',
      '\\bblocked by (?:the )?\\.\\w*ignore\\b',
      '\\b(?:directory|path) (?:is )?not allowed\\b',
      // an import the sandbox refuses: another import, or none, works
      '\\bimport(?:s|ing)? (?:of |from )?[^\\n]{1,80}? (?:is |are )?not (?:allowed|permitted|authori[sz]ed)\\b',
      '\\bauthori[sz]ed imports (?:are|is)\\b',
      '\\b(?:forbidden|disallowed|blocked|unauthori[sz]ed) (?:import|module)s?\\b',
      '\\bimport (?:of )?\\S+ (?:is )?(?:blocked|forbidden|disallowed)\\b',
      '\\bmodule \\S+ (?:is )?not (?:in the )?(?:allowed|authori[sz]ed|permitted)\\b',
      // a fetch tool keeping to a site's robots.txt (the MCP fetch server: "The sites robots.txt (…),
      // specifies that autonomous fetching of this page is not allowed"): another page or site works
      '\\bspecifies that autonomous fetching (?:of this page )?is not allowed\\b',
      "\\b(?:disallowed|blocked|forbidden) by (?:the (?:site|website)(?:'s)? )?robots\\.txt\\b",
      // a host's shell tool refusing a form of command (Gemini CLI's `Command substitution using $(), <(),
      // or >() is not allowed for security reasons`): the same work written otherwise runs
      '\\bis not allowed for security reasons\\b',
    ],
    hints: [
      'security reasons',
      'outside',
      'escapes',
      'not in',
      'not within',
      'not under',
      'not inside',
      'must be',
      'blocked',
      'not allowed',
      'import',
      'authorised imports',
      'authorized imports',
      'forbidden',
      'disallowed',
      'blocked',
      'unauthori',
      'module',
    ],
  },
  rateLimit: {
    patterns: ['\\bpull rate limit\\b'],
    hints: ['rate'],
  },
  permission: {
    patterns: [
      '\\binsufficient[ _](?:permissions?|privileges?|scopes?|access)\\b',
      "\\b(?:does not|doesn't|do not|don't|did not) have (?:the )?(?:required |necessary |sufficient )?(?:permission|access|rights|privilege)",
      '\\bmust be (?:superuser|root|privileged|run as root)\\b',
      '\\bare you root\\b',
      '\\brequires? (?:root|superuser|admin(?:istrator)?|elevated) (?:privileges?|permissions?|rights|access)\\b',
      '\\bsudo: (?:a (?:password|terminal) is required|\\d+ incorrect)',
    ],
    hints: [
      'permission',
      'password',
      'insufficient',
      'have',
      'must be',
      'are you root',
      'require',
      'incorrect',
      'sudo:',
    ],
  },
  unavailable: {
    patterns: [
      '\\bcannot connect to the docker daemon\\b',
      '\\bis the docker daemon running\\b',
      '\\bdocker daemon is not running\\b',
      // the Docker client that could not reach its daemon (`docker: error during connect: … open
      // //./pipe/docker_engine: The system cannot find the file specified.`)
      '\\bdocker: error during connect\\b',
      // the container a sandbox runs the agent's commands in stopped under it
      '\\berror response from daemon: container \\S+ is not running\\b',
      // the sandbox the agent's commands ran in is gone (expired, killed), or its launcher failed
      '\\bsandbox (?:was |is )?not found\\b',
      '\\bsandbox (?:is |was )?(?:probably )?(?:not running|no longer running|already closed|closed)\\b',
      '(?:^|\\n)bwrap: ',
      // the sandbox did not come up (`Sandbox failed to start within 120s`, a launcher's
      // `LandlockSandboxExecutableNotProvided`): every command fails until the host is fixed
      "\\bsandbox (?:failed to|could not|couldn't|did not|cannot|can't) (?:start|launch|spawn|boot|initiali[sz]e|be created)\\b",
      '\\b(?:failed to|could not|unable to) (?:start|launch|spawn|boot|initiali[sz]e|create) (?:the )?sandbox\\b',
      '\\b\\w*sandbox\\w*(?:notprovided|notavailable|unavailable|notinstalled|startfailed|failedtostart)\\b',
      // the runtime could not run the command in its container at all (`error executing command in
      // container: failed to exec in container: …`), whatever it then says of its own files
      '\\b(?:error executing command|failed to exec|failed to start exec) in container\\b',
      '\\bserver (?:is )?(?:down|unreachable|not responding)\\b',
      '\\bsystem has not been booted with systemd\\b',
      '\\bfailed to connect to bus\\b',
      '\\bconnect ENOENT\\b',
      '\\bno such device or address\\b',
      '\\bspawn \\S+ (?:ENOENT|EACCES)\\b',
      '\\b(?:is|are) not installed\\b',
      '\\bnot installed (?:on|in) (?:this|the|your)\\b',
      '\\bcan be installed with\\b',
      "\\bexecutable doesn't exist at\\b",
      // a browser a browser tool drives that is not installed where it looks (`Chromium distribution
      // 'chrome' is not found at C:\…\chrome.exe`, then `Run "npx playwright install chrome"`)
      "\\b(?:chromium|chrome|firefox|webkit|msedge|browser) distribution '[^'\\n]{1,40}' is not found\\b",
      '\\bplease run the following command to download new browsers\\b',
      '\\btarget (?:page, context or browser )?(?:has been )?closed\\b',
      '\\bTargetClosedError\\b',
      '\\bbrowser (?:has been )?(?:closed|disconnected|crashed)\\b',
      '\\bpage crashed\\b',
    ],
    hints: [
      'docker daemon',
      'error during connect',
      'not running',
      'sandbox',
      'in container',
      'bwrap:',
      'not responding',
      'server',
      'connect to',
      'systemd',
      'bus',
      'connect enoent',
      'no such device or address',
      'spawn',
      'not installed',
      'can be installed',
      "executable doesn't exist",
      'distribution',
      'download new browsers',
      'closed',
      'disconnected',
      'targetclosederror',
      'crashed',
    ],
  },
};
