/**
 * acct serve's webhook flags, with real processes. --allow-private-webhooks
 * and --allow-http-webhooks lift the address and scheme rules (strict
 * without them). --webhook-ca adds a private certificate authority to the ones acct
 * already trusts (its help: "besides the system ones"); it must not take
 * their place. The "system" trust is simulated with NODE_EXTRA_CA_CERTS,
 * which Node adds to its built-in roots for every connection that does not
 * name its own CAs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t, { type Test } from 'tap';
import { delay, init } from '../cli/support.js';
import { selfSigned, startReceiver, type Receiver } from './support.js';
import { generousMs, request, runCli, startAcct } from '../helpers/index.js';

async function registerAt(t: Test, url: string, key: string, receiver: Receiver): Promise<string> {
  const r = await request(url, 'POST', '/v1/webhooks', { key, body: { url: receiver.url('/hook'), events: ['contact.created'] } });
  t.equal(r.status, 201, `endpoint registered: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data.id as string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliveries are checked field by field
async function firstAttempt(url: string, key: string, endpointId: string): Promise<any> {
  const deadline = Date.now() + generousMs;
  for (;;) {
    const r = await request(url, 'GET', `/v1/webhook-endpoints/${endpointId}/deliveries`, { key });
    const d = r.body?.data?.[0];
    if (d !== undefined && d.attempts >= 1) return d;
    if (Date.now() > deadline) throw new Error(`no attempt within ${generousMs / 1000} s: ${JSON.stringify(r.body)}`);
    await delay(100);
  }
}

t.test('a receiver trusted by the system store is still reached when --webhook-ca names another CA', async (t) => {
  const dir = t.testdir();
  const { apiKey } = await init(t, dir);
  const privateCa = selfSigned(path.join(dir, 'private'));
  const systemCa = selfSigned(path.join(dir, 'system'));
  const privateReceiver = await startReceiver(t, privateCa);
  const systemReceiver = await startReceiver(t, systemCa);

  const server = await startAcct(
    t,
    ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0', '--allow-private-webhooks', '--webhook-ca', privateCa.certPath],
    {
      env: { NODE_EXTRA_CA_CERTS: systemCa.certPath },
    },
  );
  const toPrivate = await registerAt(t, server.url, apiKey, privateReceiver);
  const toSystem = await registerAt(t, server.url, apiKey, systemReceiver);
  t.equal((await request(server.url, 'POST', '/v1/contacts', { key: apiKey, body: { contactType: 'customer', name: 'Trust Ltd' } })).status, 201);

  const viaPrivate = await firstAttempt(server.url, apiKey, toPrivate);
  t.match(viaPrivate, { status: 'succeeded', responseStatus: 200 }, 'the --webhook-ca receiver is reached');
  t.equal(privateReceiver.hits.length, 1);
  const viaSystem = await firstAttempt(server.url, apiKey, toSystem);
  t.match(viaSystem, { status: 'succeeded', responseStatus: 200 }, `the system-trusted receiver is reached too (error: ${viaSystem.error})`);
  t.equal(systemReceiver.hits.length, 1);
});

t.test('control: without --webhook-ca the NODE_EXTRA_CA_CERTS receiver is trusted', async (t) => {
  const dir = t.testdir();
  const { apiKey } = await init(t, dir);
  const systemCa = selfSigned(path.join(dir, 'system'));
  const receiver = await startReceiver(t, systemCa);
  const server = await startAcct(t, ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0', '--allow-private-webhooks'], {
    env: { NODE_EXTRA_CA_CERTS: systemCa.certPath },
  });
  const id = await registerAt(t, server.url, apiKey, receiver);
  t.equal((await request(server.url, 'POST', '/v1/contacts', { key: apiKey, body: { contactType: 'customer', name: 'Trust Ltd' } })).status, 201);
  t.match(await firstAttempt(server.url, apiKey, id), { status: 'succeeded', responseStatus: 200 });
  t.equal(receiver.hits.length, 1);
  server.child.kill('SIGTERM');
  t.same(await server.exited, { code: 0, signal: null });
});

t.test('without the flags serve is strict; --allow-http-webhooks with --allow-private-webhooks delivers to a local http receiver', async (t) => {
  const dir = t.testdir();
  const { apiKey } = await init(t, dir);
  const strict = await startAcct(t, ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0']);
  for (const url of ['https://127.0.0.1:9/hook', 'http://93.184.215.14/hook']) {
    const r = await request(strict.url, 'POST', '/v1/webhooks', { key: apiKey, body: { url, events: ['contact.created'] } });
    t.equal(r.status, 400, `${url} refused by default`);
    t.equal(r.body.error?.field, 'url');
  }
  strict.child.kill('SIGTERM');
  t.same(await strict.exited, { code: 0, signal: null });

  const privateOnly = await startAcct(t, ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0', '--allow-private-webhooks']);
  t.equal(
    (await request(privateOnly.url, 'POST', '/v1/webhooks', { key: apiKey, body: { url: 'http://127.0.0.1:9/hook', events: ['contact.created'] } })).status,
    400,
    'http still refused with --allow-private-webhooks alone',
  );
  privateOnly.child.kill('SIGTERM');
  t.same(await privateOnly.exited, { code: 0, signal: null });

  const bodies: string[] = [];
  const plain = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      bodies.push(text);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => plain.close(() => resolve())));
  const port = (plain.address() as AddressInfo).port;

  const both = await startAcct(t, ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0', '--allow-private-webhooks', '--allow-http-webhooks']);
  const r = await request(both.url, 'POST', '/v1/webhooks', { key: apiKey, body: { url: `http://127.0.0.1:${port}/hook`, events: ['contact.created'] } });
  t.equal(r.status, 201, 'http://127.0.0.1 accepted with both flags');
  t.equal((await request(both.url, 'POST', '/v1/contacts', { key: apiKey, body: { contactType: 'customer', name: 'Plain Ltd' } })).status, 201);
  t.match(await firstAttempt(both.url, apiKey, r.body.data.id), { status: 'succeeded', responseStatus: 200 });
  t.equal(bodies.length, 1);
  t.equal(JSON.parse(bodies[0] as string).data.name, 'Plain Ltd');
  both.child.kill('SIGTERM');
  t.same(await both.exited, { code: 0, signal: null });
});

t.test('--webhook-ca with a file that cannot be read: exit 2 before listening', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const r = runCli(['--data', dir, '--json', 'serve', '--host', '127.0.0.1', '--port', '0', '--webhook-ca', path.join(dir, 'missing.pem')]);
  t.equal(r.status, 2);
  t.equal(r.stdout, '', 'no URL line');
  t.match(JSON.parse(r.stderr).error, { code: 'validation_error', field: 'webhook-ca' });
});
