#!/usr/bin/env node
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
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
