/** Shared steps of the user and session tests (not a test file itself). */
import type { Test } from 'tap';
import type { Api } from '../helpers/index.js';

export const person = { email: 'Jo@Example.com', password: 'correct horse battery', fullName: 'Jo Bloggs', organisationName: 'Bloggs Joinery Ltd' };

/** Register `person` (or another) and return the reply's data. */
export async function registerUser(t: Test, api: Api, body: Record<string, unknown> = person) {
  const r = await api.request('POST', '/v1/registration/register', { key: null, body });
  t.equal(r.status, 201, `registered: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** Log in; the data of a 200. */
export async function logIn(t: Test, api: Api, email = person.email, password = person.password) {
  const r = await api.request('POST', '/v1/auth/login', { key: null, body: { email, password } });
  t.equal(r.status, 200, `logged in: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}
