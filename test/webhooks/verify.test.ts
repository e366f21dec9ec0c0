/**
 * Checking a delivery as a receiver does: verifyWebhook and the real
 * `acct webhooks verify`, against signatures computed by openssl.
 */
import path from 'node:path';
import t from 'tap';
import { runCli, runCliInProcess } from '../helpers/index.js';
import { verifyWebhook } from '../../src/engine/integration/webhook-verify.js';
import { opensslSignature } from './support.js';

const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ';
const body = '{"event":"contact.created","timestamp":"2026-11-21T10:00:00.000Z","data":{"id":"cont_1","name":"Café £ Ltd"}}';
const ts = '1795255200';

t.test('verifyWebhook', async (t) => {
  const signature = await opensslSignature(secret, ts, Buffer.from(body));
  const base = { secret, timestamp: ts, signature, body, nowSeconds: 1795255200, toleranceSeconds: 300 };
  t.same(verifyWebhook(base).valid, true, 'the openssl signature is valid');
  t.same(verifyWebhook({ ...base, body: Buffer.from(body) }).valid, true, 'the body as bytes');
  t.same(verifyWebhook({ ...base, nowSeconds: 1795255500 }).valid, true, '300 s later: still valid');
  t.same(verifyWebhook({ ...base, nowSeconds: 1795254900 }).valid, true, '300 s earlier: still valid');
  const late = verifyWebhook({ ...base, nowSeconds: 1795255501 });
  t.same(late.valid, false, '301 s later: too old');
  t.match(late.reason, /301 s/);
  t.same(verifyWebhook({ ...base, nowSeconds: 1795254899 }).valid, false, '301 s earlier: refused too');
  t.same(verifyWebhook({ ...base, nowSeconds: 0, toleranceSeconds: 0 }).valid, true, 'tolerance 0: the time is not checked');
  t.same(verifyWebhook({ ...base, secret: secret.slice('whsec_'.length) }).valid, false, 'the key is the whole secret, whsec_ included');
  t.same(verifyWebhook({ ...base, body: body.replace('cont_1', 'cont_2') }).valid, false, 'a changed body');
  t.same(verifyWebhook({ ...base, body: JSON.stringify(JSON.parse(body), null, 1) }).valid, false, 're-serialised JSON does not match');
  t.same(verifyWebhook({ ...base, timestamp: '1795255201', nowSeconds: 1795255201 }).valid, false, 'another timestamp');
  t.same(verifyWebhook({ ...base, signature: signature.slice(0, 63) }).valid, false, 'a short signature');
  t.same(verifyWebhook({ ...base, signature: '' }).valid, false, 'no signature');
  t.same(verifyWebhook({ ...base, signature: `${signature}00` }).valid, false, 'a long signature');
  const notNumber = verifyWebhook({ ...base, timestamp: '1795255200.5' });
  t.same(notNumber.valid, false, 'a timestamp that is not whole seconds');
  t.match(notNumber.reason, /timestamp/);
});

t.test('acct webhooks verify', async (t) => {
  const dir = t.testdir({ 'body.json': body });
  const payload = path.join(dir, 'body.json');
  const now = Math.floor(Date.now() / 1000);
  const fresh = String(now - 10);
  const freshSig = await opensslSignature(secret, fresh, Buffer.from(body));

  const fromFile = await runCliInProcess(['webhooks', 'verify', '--secret', secret, '--timestamp', fresh, '--signature', freshSig, '--payload', payload]);
  t.equal(fromFile.status, 0, `valid from --payload: ${fromFile.stderr}`);
  t.match(fromFile.stdout, /^valid: /);
  t.equal(fromFile.stdout.split('\n').length, 2, 'one line');

  const fromEnv = runCli(['webhooks', 'verify', '--timestamp', fresh, '--signature', freshSig], { input: body, env: { ACCT_WEBHOOK_SECRET: secret } });
  t.equal(fromEnv.status, 0, 'the secret from $ACCT_WEBHOOK_SECRET, the body from standard input');

  const json = await runCliInProcess(['--json', 'webhooks', 'verify', '--secret', secret, '--timestamp', fresh, '--signature', freshSig, '--payload', payload]);
  t.equal(json.status, 0);
  t.equal(JSON.parse(json.stdout).valid, true);
  t.type(JSON.parse(json.stdout).reason, 'string');

  const oldTs = String(now - 400);
  const oldSig = await opensslSignature(secret, oldTs, Buffer.from(body));
  const stale = await runCliInProcess(['webhooks', 'verify', '--secret', secret, '--timestamp', oldTs, '--signature', oldSig, '--payload', payload]);
  t.equal(stale.status, 1, 'older than the default 300 s: exit 1');
  t.match(stale.stdout, /^invalid: .*timestamp/);
  t.equal(
    (await runCliInProcess(['webhooks', 'verify', '--secret', secret, '--timestamp', oldTs, '--signature', oldSig, '--payload', payload, '--tolerance', '600']))
      .status,
    0,
    '--tolerance 600 lets it pass',
  );

  const forged = await runCliInProcess(['--json', 'webhooks', 'verify', '--secret', secret, '--timestamp', fresh, '--signature', oldSig, '--payload', payload]);
  t.equal(forged.status, 1, 'a signature for another timestamp: exit 1');
  t.equal(JSON.parse(forged.stdout).valid, false);

  const noSecret = await runCliInProcess(['--json', 'webhooks', 'verify', '--timestamp', fresh, '--signature', freshSig, '--payload', payload], {
    env: { ACCT_WEBHOOK_SECRET: '' },
  });
  t.equal(noSecret.status, 2, 'no secret: a usage error');
  t.match(JSON.parse(noSecret.stderr || noSecret.stdout).error, { code: 'validation_error', field: 'secret' });

  t.equal(
    (
      await runCliInProcess([
        'webhooks',
        'verify',
        '--secret',
        secret,
        '--timestamp',
        fresh,
        '--signature',
        freshSig,
        '--payload',
        payload,
        '--tolerance',
        'soon',
      ])
    ).status,
    2,
    'a bad --tolerance is a usage error',
  );
});
