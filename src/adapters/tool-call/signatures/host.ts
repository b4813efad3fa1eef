/**
 * The host machine: memory, processes, signals, locks held by other processes.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import { type FamilyTable, LINE_INDENT } from './vocabulary.js';

export const HOST: FamilyTable = {
  resources: {
    patterns: [
      '\\bENOMEM\\b',
      '\\bcannot allocate memory\\b',
      '\\bout of memory\\b',
      '\\boutofmemoryerror\\b',
      '^(?:\\w+\\.)*MemoryError\\b',
      '\\bheap limit allocation failed\\b',
      // a runtime's own memory limit reached (`Allowed memory size of 1610612736 bytes exhausted`)
      '\\bmemory size of \\d+ bytes exhausted\\b',
      // a device with no room left for what the call installs (`INSTALL_FAILED_INSUFFICIENT_STORAGE`)
      '\\binstall_failed_insufficient_storage\\b',
      '\\bfork: (?:retry: )?resource temporarily unavailable\\b',
      '\\bcannot fork\\b',
      '\\boom[ -]?kill',
      // gcc's pass stopped by a signal, its name in the system's language (`Killed signal terminated
      // program cc1plus`, `Morto signal terminated program lto1`)
      '\\bsignal terminated program\\b',
      '\\binternal compiler error: killed\\b',
      // a build daemon that died under the build (Gradle's, most often out of memory)
      '\\bdaemon disappeared unexpectedly\\b',
    ],
    hints: [
      'enomem',
      'allocate memory',
      'out of memory',
      'outofmemory',
      'memoryerror',
      'heap limit',
      'bytes exhausted',
      'insufficient_storage',
      'fork',
      'oom',
      'signal terminated',
      'compiler error: killed',
      'daemon disappeared',
    ],
  },
  unavailable: {
    patterns: [
      '\\bexited with (?:code null|signal)\\b',
      '\\bsignal: killed\\b',
      '\\bkilled by (?:a )?signal\\b',
      '\\bSIGKILL\\b',
      // a shell's report of a job killed (`bash: line 1:  4567 Killed   python train.py`), make's
      // of a recipe killed (`make: *** [Makefile:12: all] Killed`, status 137: 128 + SIGKILL)
      `^(?:\\S+: )?(?:line \\d+:)?${LINE_INDENT}\\d+ (?:killed|terminated)\\b`,
      '\\*\\*\\* \\[[^\\]\\n]{1,200}\\] (?:killed|terminated|error 137)$',
      // the status itself, where a host or a shell server prints it (`Exit code 137`, `(code: 137, signal: null)`)
      '\\b(?:exit(?:ed with)? (?:code|status)|code:) 137\\b',
    ],
    hints: ['exited with', 'signal', 'sigkill', 'killed', 'terminated', 'error 137', ' 137'],
  },
  locked: {
    patterns: [
      '\\block (?:is )?(?:already )?held by\\b',
      '\\block (?:wait )?timeout\\b',
      '\\b(?:update|operation|deployment|another operation) (?:is )?(?:currently |already |still )?in progress\\b',
      // a state, stack or workspace held by another run (`the stack is currently locked by 1 lock(s)`)
      '\\b(?:is|are) (?:currently |already )?locked by\\b',
      '\\bwait for the other (?:process|operation|run)(?:es|s|\\(es\\)|\\(s\\))? to (?:end|finish|complete|exit)\\b',
    ],
    hints: ['another', 'lock', 'in progress', 'wait for the other'],
  },
};
