#!/usr/bin/env node
import module from 'node:module';
// The bin imports the TypeScript sources directly: Node 24 strips their types itself, so `npx muster`
// works right after `npm ci` with no build step and no loader. It runs on the Node 24 that `npm ci` puts in node_modules/.bin (docs/operations.md#nodejs);
// another Node (the machine's own, run by hand) is refused here, before better-sqlite3 (compiled
// for Node 24) fails to load.
if (Number(process.versions.node.split('.')[0]) < 24) {
  process.stderr.write(
    `muster needs Node.js 24 or later; this is ${process.version} (${process.execPath}). ` +
      'Run it through npm (npm start, npm run muster, npx muster), which runs the Node 24 ' +
      'that npm ci put in node_modules/.bin, or put that folder first in PATH.\n',
  );
  process.exit(1);
}
// Node's compile cache (in the temp folder, keyed by each module's source; NODE_DISABLE_COMPILE_CACHE
// turns it off): a command starts in about 60 % of the CPU once a first run has filled it.
module.enableCompileCache?.();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
