// The isolation benchmark's reference child (bench/isolation.ts): a Node process that only posts one message to its parent and exits.
process.send({ ch: 'run', msg: null }, () => process.exit(0));
