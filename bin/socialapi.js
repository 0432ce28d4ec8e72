#!/usr/bin/env node
// The `socialapi` command. Node 24 runs the TypeScript sources directly (type stripping); the
// Node of the `node` devDependency is first on PATH under npm and npx.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  process.stderr.write(`socialapi needs Node.js 24 or later (this is ${process.version}); run it through npm or npx after npm ci.\n`);
  process.exit(1);
}
// Loading the sources is most of a command's start (type stripping, then compiling some 600
// modules): Node keeps both in its compile cache, keyed by content, so a later start reuses them.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main } = await import('../src/main/cli.ts');
// Run by npm (`npm start`, npx), a shell stands between npm and this process: long-running
// commands then stop when that shell goes away (src/main/shutdown.ts, watchParent).
await main(process.argv.slice(2), { underNpm: process.env.npm_lifecycle_event !== undefined });
