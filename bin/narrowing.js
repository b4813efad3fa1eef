#!/usr/bin/env node
// CommonJS (see bin/package.json): a process that starts from an ES module starts Node's ES module
// loader too, which a hook process, run on every tool call, would pay for on every event.
'use strict';

// `hook` runs on every tool call an agent makes: it goes straight to the bundled hook, which reads
// its own arguments, and skips the full command line and its imports.
if (process.argv[2] === 'hook') {
  try {
    require('../dist/hooks/hook.cjs');
  } catch (error) {
    failed(error);
  }
} else {
  // The command line runs from one bundled script with V8's code cache (see src/cli/start.ts), started
  // by the start-up bundled as CommonJS: no ES module loader for a command that needs none. A build
  // without the bundles (`tsc` alone) starts from the modules.
  let start;
  try {
    start = Promise.resolve(require('../dist/cli/start.cjs'));
  } catch (error) {
    start =
      error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes('start.cjs')
        ? import('../dist/cli/start.js')
        : Promise.reject(error);
  }
  start.then((cli) => cli.startCli(process.argv.slice(2))).catch(failed);
}

function failed(error) {
  const missing = error && (error.code === 'ERR_MODULE_NOT_FOUND' || error.code === 'MODULE_NOT_FOUND');
  if (missing && String(error.message).includes('dist')) {
    console.error(
      'narrowing-guard: the package is not built. Run `npm run build` (or `npm ci`, which builds it).',
    );
  } else if (error && typeof error.code === 'string' && error[Symbol.for('narrowing-guard.error')] === true) {
    // An error narrowing raised on purpose says what to do; its stack would only hide that.
    console.error(`narrowing-guard: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
}
