// Child process for the atomic-write test: saves a large thread to argv[2] over and over,
// alternating two versions, printing "saved <n>" after each save. The test kills it with SIGKILL.
import { saveThreadFile } from '../../../main/core/threads/thread-file';
import type { Thread } from '../../../shared/thread/schema';

const file = process.argv[2];
const mb = Number(process.argv[3] ?? 8);
const image = Buffer.alloc(Math.floor((mb * 1024 * 1024 * 3) / 4), 1).toString('base64');

const thread = (n: number): Thread => ({
  version: 1,
  id: 'atomic-test',
  title: `version ${n % 2}`,
  model: { provider: 'scripted', id: 'scripted', params: {} },
  context: {
    systemPrompt: `save ${n}`,
    tools: [],
    messages: [{ id: 'm1', role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', mimeType: 'image/png', data: image }] }],
  },
  runRefs: [],
});

for (let n = 1; n <= 200; n++) {
  await saveThreadFile(file, thread(n));
  process.stdout.write(`saved ${n}\n`);
}
