#!/usr/bin/env node
// `hook` runs on every tool call an agent makes: it skips the full command line and its imports.
const hook = process.argv[2] === 'hook';
const entry = hook ? import('../dist/hooks/main.js') : import('../dist/cli/main.js');
entry
  .then(async (cli) => {
    if (hook) process.exitCode = await cli.hookMain(process.argv.slice(3));
    else await cli.main(process.argv.slice(2));
  })
  .catch((error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
      console.error(
        'narrowing: the package is not built. Run `npm run build` (or `npm ci`, which builds it).',
      );
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  });
