#!/usr/bin/env node
// A test MCP server that starts and never answers (not even initialize): a connect timeout.
process.stdin.resume();
setInterval(() => {}, 1000);
