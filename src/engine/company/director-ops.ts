/** The operations of directors (directors.ts): list, add, get, update, resign. Scopes directors:read and directors:write. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf, isoDate } from '../schema.js';
import { pageMetaSchema, pageQuery } from '../pagination.js';
import {
  addDirector,
  changeDirector,
  directorSchema,
  directorView,
  findDirector,
  listDirectors,
  relationships,
  requireCompany,
  resignDirector,
} from './directors.js';

const params = { id: idOf('dir') };

const fields = {
  fullName: z.string().trim().min(1).max(200),
  email: z.email().max(254).nullable().optional(),
  address: z.string().max(2000).nullable().optional(),
  isShareholder: z.boolean().optional(),
  sharesHeld: z.number().int().min(0).max(1_000_000_000).optional(),
  shareClass: z.string().trim().min(1).max(50).optional().describe('default Ordinary'),
  appointedDate: isoDate().nullable().optional(),
  connectedToDirectorId: idOf('dir').nullable().optional().describe('with relationship: a connected person of that director'),
  relationship: z.enum(relationships).nullable().optional(),
};

export const listDirectorsOp = defineOperation({
  name: 'directors.list',
  summary: 'List directors, shareholders and connected persons',
  access: 'directors:read',
  method: 'GET',
  path: '/directors',
  query: { active: z.boolean().optional(), ...pageQuery() },
  output: z.array(directorSchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const { rows, meta } = await listDirectors(orgOf(ctx).db, input.active, input);
    return { data: rows, meta };
  },
});

export const addDirectorOp = defineOperation({
  name: 'directors.add',
  summary: 'Add a director, shareholder or connected person',
  description: 'A limited company only (422 otherwise). connectedToDirectorId and relationship go together, both or neither (400).',
  access: 'directors:write',
  method: 'POST',
  path: '/directors',
  status: 201,
  body: fields,
  output: directorSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => addDirector(trx, ctx.clock, input)) };
  },
});

export const getDirectorOp = defineOperation({
  name: 'directors.get',
  summary: 'Show a director',
  access: 'directors:read',
  method: 'GET',
  path: '/directors/{id}',
  params,
  output: directorSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    return { data: directorView(await findDirector(db, input.id)) };
  },
});

export const updateDirectorOp = defineOperation({
  name: 'directors.update',
  summary: 'Change a director’s details, shares or connection',
  access: 'directors:write',
  method: 'PATCH',
  path: '/directors/{id}',
  params,
  body: { ...fields, fullName: fields.fullName.optional() },
  output: directorSchema,
  async run(ctx, input) {
    const { id, ...change } = input;
    return { data: await orgOf(ctx).write((trx) => changeDirector(trx, ctx.clock, id, change)) };
  },
});

export const resignDirectorOp = defineOperation({
  name: 'directors.resign',
  summary: 'Resign a director (today, or resignedDate): inactive, history kept',
  access: 'directors:write',
  method: 'DELETE',
  path: '/directors/{id}',
  params,
  query: { resignedDate: isoDate().optional() },
  output: directorSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => resignDirector(trx, ctx.clock, input.id, input.resignedDate)) };
  },
});
