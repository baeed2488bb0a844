// The Node.js example engine with a process fault on every sacrifice event, for the isolation
// tests: `node faulty_engine.js MODE [--bug NAME]...` where MODE is `crash` (SIGSEGV) or
// `exit_mid_apply` (exits in the middle of apply). Node starts in tens of milliseconds, so a
// run that restarts it after every fault stays fast.
"use strict";

const path = require("path");
const engine = require(path.join(__dirname, "..", "..", "examples", "engines", "node", "engine.js"));

const mode = process.argv[2];
const bugs = engine.parseArgs(process.argv.slice(3));
engine.serve(bugs, {
  beforeApply(event) {
    if (!event || event.type !== "sacrifice") return;
    process.stderr.write(`faulty node engine: about to ${mode} on ${JSON.stringify(event)}\n`);
    if (mode === "crash") process.kill(process.pid, "SIGSEGV");
    else if (mode === "exit_mid_apply") process.exit(7);
  },
});
