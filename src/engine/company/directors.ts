/**
 * Directors and shareholders of a limited company: shares held and their
 * class (for dividends and per-share amounts), appointment and
 * resignation (a resigned director stays, inactive), and connected persons
 * (a spouse, child, parent or associate of a director, whose loan balances
 * count with the director's for S455). The company features are for
 * limited companies: requireCompany refuses the others (422).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp, today, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import { found } from '../lookup.js';
import { day, idOut, instant } from '../output.js';
import { fiscalYearContaining, type DateRange } from '../dates.js';
import { loadOrganisation } from '../organisation/organisation.js';
import type { DirectorsTable, OrgDb } from '../../store/tables.js';
import { listPage, type PageMeta } from '../pagination.js';

export const relationships = ['spouse', 'child', 'parent', 'associate'] as const;

/** 422 unless the organisation is a limited company: directors, loans and dividends exist only there. */
export async function requireCompany(db: Kysely<OrgDb>): Promise<void> {
  const org = await db.selectFrom('organisation').select('business_type').executeTakeFirstOrThrow();
  if (org.business_type !== 'limited_company') {
    throw new AppError('unprocessable_entity', 'directors, director loans and dividends are for limited companies: this organisation is a sole trader');
  }
}

/** The company's accounting year (its financial year, from the fiscal year start) holding `date`. */
async function accountingYearOf(db: Kysely<OrgDb>, date: string): Promise<DateRange> {
  return fiscalYearContaining(date, (await loadOrganisation(db)).fiscal_year_start);
}

/** 400 naming `field` unless `date` is the last day of one of the company's accounting years; that year. */
export async function yearEndingOn(db: Kysely<OrgDb>, date: string, field: string): Promise<DateRange> {
  const year = await accountingYearOf(db, date);
  if (year.endDate !== date)
    throw new AppError(
      'validation_error',
      `${field}: the accounting period ends on ${year.endDate}, not ${date}: ${date} ends none of the company's years`,
      field,
    );
  return year;
}

export const directorSchema = z.strictObject({
  id: idOut('dir'),
  fullName: z.string(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  isShareholder: z.boolean(),
  sharesHeld: z.number().int(),
  shareClass: z.string(),
  appointedDate: day().nullable(),
  resignedDate: day().nullable(),
  active: z.boolean(),
  connectedToDirectorId: z.string().nullable(),
  relationship: z.enum(relationships).nullable(),
  createdAt: instant(),
  updatedAt: instant(),
});
export type Director = z.output<typeof directorSchema>;

export const directorView = (r: DirectorsTable): Director => ({
  id: r.id,
  fullName: r.full_name,
  email: r.email,
  address: r.address,
  isShareholder: r.is_shareholder === 1,
  sharesHeld: r.shares_held,
  shareClass: r.share_class,
  appointedDate: r.appointed_date,
  resignedDate: r.resigned_date,
  active: r.is_active === 1,
  connectedToDirectorId: r.connected_to_director_id,
  relationship: r.relationship,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function findDirector(db: Kysely<OrgDb>, id: string): Promise<DirectorsTable> {
  return found(db.selectFrom('directors').selectAll().where('id', '=', id).executeTakeFirst(), 'director', id);
}

export interface DirectorInput {
  readonly fullName?: string;
  readonly email?: string | null;
  readonly address?: string | null;
  readonly isShareholder?: boolean;
  readonly sharesHeld?: number;
  readonly shareClass?: string;
  readonly appointedDate?: string | null;
  readonly connectedToDirectorId?: string | null;
  readonly relationship?: (typeof relationships)[number] | null;
}

/** The connection, both fields or neither (400), to another director than this one, who is no connected person, from one who has none. */
async function checkConnection(db: Kysely<OrgDb>, self: string, to: string | null, relationship: string | null): Promise<void> {
  if ((to === null) !== (relationship === null)) {
    throw new AppError(
      'validation_error',
      'connectedToDirectorId and relationship go together: both or neither',
      to === null ? 'connectedToDirectorId' : 'relationship',
    );
  }
  if (to === null) return;
  if (to === self) throw new AppError('validation_error', 'connectedToDirectorId: a director cannot be connected to themselves', 'connectedToDirectorId');
  const other = await db.selectFrom('directors').select('connected_to_director_id').where('id', '=', to).executeTakeFirst();
  if (!other) throw new AppError('validation_error', `connectedToDirectorId: no director ${to}`, 'connectedToDirectorId');
  if (other.connected_to_director_id !== null) {
    throw new AppError('validation_error', `connectedToDirectorId: ${to} is itself a connected person; connect to the director`, 'connectedToDirectorId');
  }
  // One level only: a director's loans are grouped with those connected to him, so his own connected persons would drop out of S455.
  const own = await db.selectFrom('directors').select('full_name').where('connected_to_director_id', '=', self).orderBy('full_name').execute();
  if (own.length > 0) {
    throw new AppError(
      'validation_error',
      `connectedToDirectorId: ${own.map((d) => d.full_name).join(', ')} ${own.length === 1 ? 'is' : 'are'} connected to this director; a director with connected persons cannot be one, so connect them elsewhere or not at all first`,
      'connectedToDirectorId',
    );
  }
}

function checkShares(isShareholder: boolean, shares: number): void {
  if (isShareholder && shares <= 0) throw new AppError('validation_error', 'sharesHeld: a shareholder holds at least one share', 'sharesHeld');
  if (!isShareholder && shares > 0) throw new AppError('validation_error', 'sharesHeld: only a shareholder holds shares (isShareholder true)', 'isShareholder');
}

/** An appointment is a fact of the register (Companies House's AP01 is filed after it): not after today, nor after a resignation. */
function checkAppointed(clock: Clock, appointed: string | null, resigned: string | null): void {
  if (appointed === null) return;
  const now = today(clock);
  if (appointed > now)
    throw new AppError('validation_error', `appointedDate: ${appointed} is after today (${now}); add the director once appointed`, 'appointedDate');
  if (resigned !== null && appointed > resigned)
    throw new AppError('validation_error', `appointedDate: ${appointed} is after the resignation on ${resigned}`, 'appointedDate');
}

export async function addDirector(trx: Kysely<OrgDb>, clock: Clock, input: DirectorInput & { readonly fullName: string }): Promise<Director> {
  await requireCompany(trx);
  const id = newId('dir', clock.now());
  const connectedTo = input.connectedToDirectorId ?? null;
  const relationship = input.relationship ?? null;
  await checkConnection(trx, id, connectedTo, relationship);
  const isShareholder = input.isShareholder ?? (input.sharesHeld ?? 0) > 0;
  const shares = input.sharesHeld ?? 0;
  checkShares(isShareholder, shares);
  checkAppointed(clock, input.appointedDate ?? null, null);
  const now = timestamp(clock);
  const row: DirectorsTable = {
    id,
    full_name: input.fullName.trim(),
    email: input.email ?? null,
    address: input.address ?? null,
    is_shareholder: isShareholder ? 1 : 0,
    shares_held: shares,
    share_class: input.shareClass ?? 'Ordinary',
    appointed_date: input.appointedDate ?? null,
    resigned_date: null,
    is_active: 1,
    connected_to_director_id: connectedTo,
    relationship,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('directors').values(row).execute();
  return directorView(row);
}

export async function changeDirector(trx: Kysely<OrgDb>, clock: Clock, id: string, change: DirectorInput): Promise<Director> {
  await requireCompany(trx);
  const row = await findDirector(trx, id);
  const connectedTo = change.connectedToDirectorId === undefined ? row.connected_to_director_id : change.connectedToDirectorId;
  const relationship = change.relationship === undefined ? row.relationship : change.relationship;
  await checkConnection(trx, id, connectedTo, relationship);
  const isShareholder = change.isShareholder ?? row.is_shareholder === 1;
  const shares = change.sharesHeld ?? (change.isShareholder === false ? 0 : row.shares_held);
  checkShares(isShareholder, shares);
  if (change.appointedDate !== undefined) checkAppointed(clock, change.appointedDate, row.resigned_date);
  const next: DirectorsTable = {
    ...row,
    full_name: change.fullName?.trim() ?? row.full_name,
    email: change.email === undefined ? row.email : change.email,
    address: change.address === undefined ? row.address : change.address,
    is_shareholder: isShareholder ? 1 : 0,
    shares_held: shares,
    share_class: change.shareClass ?? row.share_class,
    appointed_date: change.appointedDate === undefined ? row.appointed_date : change.appointedDate,
    connected_to_director_id: connectedTo,
    relationship,
    updated_at: timestamp(clock),
  };
  await trx.updateTable('directors').set(next).where('id', '=', id).execute();
  return directorView(next);
}

/** Resign: inactive from `date` (today when left out, never after today: 400); the director and their history stay. */
export async function resignDirector(trx: Kysely<OrgDb>, clock: Clock, id: string, date?: string): Promise<Director> {
  await requireCompany(trx);
  const row = await findDirector(trx, id);
  if (row.is_active !== 1) throw new AppError('unprocessable_entity', `director ${id} resigned on ${row.resigned_date ?? 'an earlier date'}`);
  const now = today(clock);
  const resigned = date ?? now;
  // Resigning makes the director inactive at once, and PATCH cannot undo it: a date to come would act before its day.
  if (resigned > now) {
    throw new AppError('validation_error', `resignedDate: ${resigned} is after today (${now}); resign the director on the day`, 'resignedDate');
  }
  if (row.appointed_date !== null && resigned < row.appointed_date) {
    throw new AppError('validation_error', `resignedDate: ${resigned} is before the appointment on ${row.appointed_date}`, 'resignedDate');
  }
  const next = { ...row, is_active: 0, resigned_date: resigned, updated_at: timestamp(clock) };
  await trx.updateTable('directors').set(next).where('id', '=', id).execute();
  return directorView(next);
}

/** Which page of a list, and how long. */
export interface PageAt {
  readonly page: number;
  readonly limit: number;
}

/** A page of directors (and connected persons), by name. */
export async function listDirectors(db: Kysely<OrgDb>, active: boolean | undefined, page: PageAt): Promise<{ rows: Director[]; meta: PageMeta }> {
  await requireCompany(db);
  let q = db.selectFrom('directors');
  if (active !== undefined) q = q.where('is_active', '=', active ? 1 : 0);
  const { rows, meta } = await listPage(q, (all) => all.selectAll().orderBy('full_name').orderBy('id'), page);
  return { rows: rows.map(directorView), meta };
}
