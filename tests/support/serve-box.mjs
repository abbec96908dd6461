// The first process of a stand-in container for tests/support/serve-group.ts: it starts
// `bin/stepwise.mjs serve` in a process group of its own and kills that group with SIGKILL when
// told, and — like a container whose first process is `node` — never reaps the orphans it
// inherits, so a killed CLI stays a zombie with its pid. Commands are JSON lines on stdin:
// {"cmd":"start","args":[…]} answers {"url"} once serve prints its URL; {"cmd":"kill"} answers
// {"killed":true,"zombies":[pids]} once the wrapper is gone and every other process of the group
// is a zombie (or gone); {"cmd":"killWhenReplaced","path","ino"} answers {"armed":true}, then kills
// the group the moment `path` is replaced (another inode) and answers as kill does, with
// `replaced`. Everything serve prints goes to stderr.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
let serve;

/** State and process group of every process this one can see (its own namespace's /proc when it has one). */
function processes() {
  const out = [];
  if (!fs.existsSync('/proc')) return out;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(name), state, pgrp: Number(pgrp) });
    } catch {}
  }
  return out;
}

/** Resolves with the group's zombies once every process of group `pgrp` is one (or gone): the kill has landed. */
async function settled(pgrp) {
  for (;;) {
    const group = processes().filter((p) => p.pgrp === pgrp);
    if (group.every((p) => p.state === 'Z')) return group.map((p) => p.pid);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** SIGKILL to serve's group; answers once every process of it is a zombie or gone. */
function kill(replaced) {
  const { child, exited } = serve;
  process.kill(-child.pid, 'SIGKILL');
  void exited.then(() => settled(child.pid)).then((zombies) => say({ killed: true, zombies, ...(replaced === undefined ? {} : { replaced }) }));
}

readline.createInterface({ input: process.stdin }).on('line', (text) => {
  const msg = JSON.parse(text);
  if (msg.cmd === 'start') {
    const child = spawn(process.execPath, [path.join(root, 'bin/stepwise.mjs'), ...msg.args], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let out = '';
    let told = false;
    const seen = (d) => {
      process.stderr.write(d);
      out += d;
      const m = /Stepwise is running at (\S+)/.exec(out);
      if (m && !told) {
        told = true;
        say({ url: m[1] });
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    serve = { child, exited };
  } else if (msg.cmd === 'kill') {
    kill();
  } else if (msg.cmd === 'killWhenReplaced') {
    // Armed: then spin (nothing else runs here meanwhile) until `path` is a file other than
    // inode `ino` — the host's atomic write of it landed — and kill at once, before the host's
    // next step. Gives up after `ms`, and kills then too.
    say({ armed: true });
    const until = Date.now() + (msg.ms ?? 30_000);
    let replaced = false;
    while (!replaced && Date.now() < until) {
      try {
        replaced = fs.statSync(msg.path).ino !== msg.ino;
      } catch {}
    }
    kill(replaced);
  }
});
process.stdin.on('end', () => {
  if (serve && serve.child.exitCode === null) process.kill(-serve.child.pid, 'SIGKILL');
  process.exit(0);
});
