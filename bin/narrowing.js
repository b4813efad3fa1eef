#!/usr/bin/env node
import('../dist/cli/main.js')
  .then((cli) => cli.main(process.argv.slice(2)))
  .catch((error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
      console.error(
        'narrowing: the package is not built. Run `npm run build` (or `npm ci`, which builds it).',
      );
    } else if (
      error &&
      typeof error.code === 'string' &&
      error[Symbol.for('narrowing-guard.error')] === true
    ) {
      // An error narrowing raised on purpose says what to do; its stack would only hide that.
      console.error(`narrowing-guard: ${error.message}`);
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  });
