// Runs the command line from source, as `bin/narrowing.js` runs it from the build.
import { main } from '../../../src/cli/main.js';

await main(process.argv.slice(2));
