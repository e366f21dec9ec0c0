/** Shared steps of the administrator tests (not a test file itself). */
import type { Test } from 'tap';
import type { Books } from '../helpers/index.js';
import type { Api } from '../helpers/index.js';
import { hashPassword } from '../../src/engine/users/password.js';
import { insertUser } from '../../src/engine/users/users.js';

export const adminPassword = 'root passphrase';
export const userPassword = 'user passphrase';

/** One scrypt hash per password per test file: hashing costs ~0.3 s, and the users differ only by address. */
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string): Promise<string> => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

/** A user of the books' organisation (or another), straight into the platform database; its id. */
export async function addUser(
  books: Books,
  email: string,
  options: { readonly admin?: boolean; readonly organisationId?: string; readonly fullName?: string } = {},
): Promise<number> {
  const passwordHash = await hashOf(options.admin ? adminPassword : userPassword);
  const user = await books.store.platform.write((trx) =>
    insertUser(trx, books.clock, {
      organisationId: options.organisationId ?? books.organisationId,
      email,
      fullName: options.fullName ?? email.split('@')[0]!,
      passwordHash,
      isAdmin: options.admin === true,
    }),
  );
  return user.id;
}

/** Log in over HTTP; the access token. */
export async function logIn(t: Test, api: Api, email: string, password: string): Promise<string> {
  const r = await api.request('POST', '/v1/auth/login', { key: null, body: { email, password } });
  t.equal(r.status, 200, `logged in as ${email}: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data.accessToken as string;
}

/** An administrator (root@example.com) and a plain user (jo@example.com) of the books, logged in; their ids and access tokens. */
export async function adminAndUser(t: Test, api: Api, books: Books) {
  const adminId = await addUser(books, 'root@example.com', { admin: true, fullName: 'Root Admin' });
  const userId = await addUser(books, 'jo@example.com', { fullName: 'Jo Bloggs' });
  const admin = await logIn(t, api, 'root@example.com', adminPassword);
  const user = await logIn(t, api, 'jo@example.com', userPassword);
  return { adminId, userId, admin, user };
}

/** The audit rows, oldest first, straight from the table. */
export const auditRows = (books: Books) => books.store.platform.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

export interface ExpectedAudit {
  readonly adminId: number | null;
  /** The address, or a pattern (the local operator's local:<user>). */
  readonly adminEmail: string | RegExp;
  readonly action: string;
  readonly entityType: string;
  readonly entityId: string;
  readonly method: string;
  readonly path: string;
}

/**
 * The one audit row a mutation appended after the `before` rows there were,
 * checked: the administrator, action and entity, the request, the address
 * (loopback) and the user agent. Its details, for the test to check further.
 */
export async function newAuditRow(t: Test, books: Books, before: number, expected: ExpectedAudit): Promise<Record<string, unknown>> {
  const rows = await auditRows(books);
  t.equal(rows.length, before + 1, `exactly one audit row for ${expected.action}`);
  const row = rows.at(-1)!;
  t.match(
    { adminId: row.admin_id, adminEmail: row.admin_email, action: row.action, entityType: row.entity_type, entityId: row.entity_id },
    { adminId: expected.adminId, adminEmail: expected.adminEmail, action: expected.action, entityType: expected.entityType, entityId: expected.entityId },
    `${expected.action}: who and what`,
  );
  const details = JSON.parse(row.details) as Record<string, unknown>;
  t.same(details['request'], { method: expected.method, path: expected.path }, `${expected.action}: the request`);
  if (expected.adminId !== null) {
    t.match(row.ip_address, /^(::ffff:)?127\.0\.0\.1$/, 'the loopback address');
    t.ok(row.user_agent, 'the user agent');
  }
  return details;
}

/** How many audit rows there are now. */
export const auditCount = async (books: Books): Promise<number> => (await auditRows(books)).length;
