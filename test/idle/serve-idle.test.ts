/**
 * The real `acct serve` over more organisations than its cache holds (20
 * organisations, 40 sets of books, 32 files open at most) uses next to no
 * CPU while nobody calls it: nothing polls them (the webhook sender used to
 * open every set of books every second, 8% of a core at 20 organisations).
 * CPU time is read from /proc/<pid>/stat, so the test runs on Linux only.
 */
import fs from 'node:fs';
import t from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { defaultOrganisation, request, startAcct, systemClock } from '../helpers/index.js';

/** CPU time (user + system) of a process so far, in clock ticks (10 ms each on Linux). */
function ticks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('acct serve over 20 organisations idles', { skip: fs.existsSync('/proc/self/stat') ? false : 'needs /proc' }, async (t) => {
  const dir = t.testdir();
  const store = SqliteStore.open(dir);
  const keys: string[] = [];
  for (let i = 0; i < 20; i++) keys.push((await createOrganisation(store, systemClock, { ...defaultOrganisation, name: `Idle ${i + 1} Ltd` })).apiKey);
  await store.close();

  const server = await startAcct(t, ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0']);
  const pid = server.child.pid as number;
  // Start-up work (the overdue sweep, the sender's first look at every organisation) ends within a few seconds
  // unloaded. Over once no CPU is used for 1.5 s on end: a single quiet half-second can be a start-up waiting for its
  // disk or its turn on a loaded machine. Up to 60 s for that; a server that polls never gets there.
  let quiet = 0;
  for (let i = 0, last = ticks(pid); i < 120 && quiet < 3; i++) {
    await delay(500);
    const now = ticks(pid);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  t.ok(quiet >= 3, 'start-up work is over');

  const before = ticks(pid);
  await delay(3000);
  const used = ticks(pid) - before;
  t.ok(used <= 6, `${used} ticks of CPU in 3 s idle (at most 6: 2% of a core)`);

  // And it still answers each organisation.
  for (const key of [keys[0], keys[19]]) t.equal((await request(server.url, 'GET', '/v1/organisation', { key })).status, 200);
  server.child.kill('SIGTERM');
  t.same(await server.exited, { code: 0, signal: null });
  t.equal(server.stderr(), '');
});
