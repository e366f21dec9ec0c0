/**
 * Natural keys: the things people know a record by, turned into its id for
 * the command line (the API keeps ids). An account by its code or name, a
 * contact by its name, an invoice, quote, bill or credit note by its
 * number. A name matches exactly (ignoring case, as fold() does) first, then as a unique
 * prefix; more than one match is a 400 listing the candidates, none a 404.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import { AppError } from './errors.js';
import { idPattern } from './ids.js';
import { fold } from '../store/fold.js';
import type { OrgDb } from '../store/tables.js';

export interface Candidate {
  readonly id: string;
  /** What the person typed matches against: a name, a code, a number. */
  readonly key: string;
  /** How the candidate is listed when several match. */
  readonly label: string;
}

/** The most candidates an ambiguity error lists. */
const listed = 8;

/**
 * The one candidate `text` names: an exact id, else an exact key (ignoring
 * case), else the only key it begins (ignoring case). `noun` says what was
 * looked for, `field` which flag or field it came from.
 */
export function pickOne(candidates: readonly Candidate[], text: string, noun: string, field: string): string {
  const byId = candidates.find((c) => c.id === text);
  if (byId) return byId.id;
  const wanted = fold(text.trim());
  const exact = candidates.filter((c) => fold(c.key) === wanted);
  if (exact.length === 1) return (exact[0] as Candidate).id;
  const matches = exact.length > 1 ? exact : candidates.filter((c) => fold(c.key).startsWith(wanted));
  if (wanted !== '' && matches.length === 1) return (matches[0] as Candidate).id;
  if (wanted === '' || matches.length === 0) throw new AppError('not_found', `no ${noun} ${JSON.stringify(text)}`, field);
  const shown = matches.slice(0, listed).map((c) => `${c.label} (${c.id})`);
  const more = matches.length > listed ? `, and ${matches.length - listed} more` : '';
  throw new AppError(
    'validation_error',
    `${JSON.stringify(text)} matches ${matches.length} ${noun}s: ${shown.join('; ')}${more}; give more of it, or the id`,
    field,
  );
}

interface Kind {
  readonly noun: string;
  /** What a person may give instead of the id, for help. */
  readonly key: string;
  readonly candidates: (db: Kysely<OrgDb>, text: string) => Promise<Candidate[]>;
}

/** A number column equal to `text` ignoring case: fold() on both sides (SQLite's lower() folds only A-Z). */
const sameNumber = (column: string, text: string) => sql<SqlBool>`fold(${sql.ref(column)}) = fold(${text.trim()})`;

/** Documents by number: the whole number (it is not a name), either case. */
function documents(table: 'invoices' | 'credit_notes', kind: 'sales' | 'purchase') {
  return async (db: Kysely<OrgDb>, text: string): Promise<Candidate[]> => {
    const query =
      table === 'invoices'
        ? db.selectFrom('invoices as d').innerJoin('contacts as c', 'c.id', 'd.contact_id').select(['d.id', 'd.number', 'c.name']).where('d.kind', '=', kind)
        : db
            .selectFrom('credit_notes as d')
            .innerJoin('contacts as c', 'c.id', 'd.contact_id')
            .select(['d.id', 'd.number', 'c.name'])
            .where('d.kind', '=', kind);
    const rows = await query.where(sameNumber('d.number', text)).execute();
    return rows.map((r) => ({ id: r.id, key: r.number ?? '', label: `${r.number ?? ''} of ${r.name}` }));
  };
}

const kinds: Readonly<Record<string, Kind>> = {
  acc: {
    noun: 'account',
    key: 'the account code (4000) or name',
    async candidates(db, text) {
      const rows = await db.selectFrom('accounts').select(['id', 'code', 'name']).orderBy('code').execute();
      const byCode = rows.filter((r) => r.code === text.trim());
      const chosen = byCode.length > 0 ? byCode : rows;
      return chosen.map((r) => ({ id: r.id, key: byCode.length > 0 ? r.code : r.name, label: `${r.code} ${r.name}` }));
    },
  },
  cont: {
    noun: 'contact',
    key: "the contact's name, or its start",
    async candidates(db, text) {
      const rows = await db.selectFrom('contacts').select(['id', 'name', 'is_active']).orderBy('name').orderBy('id').execute();
      // Inactive contacts count only when no active one matches.
      const wanted = fold(text.trim());
      const active = rows.filter((r) => r.is_active === 1);
      const chosen = active.some((r) => fold(r.name).startsWith(wanted)) ? active : rows;
      return chosen.map((r) => ({ id: r.id, key: r.name, label: r.is_active ? r.name : `${r.name}, inactive` }));
    },
  },
  inv: { noun: 'invoice', key: 'the invoice number (INV-0001)', candidates: documents('invoices', 'sales') },
  bill: { noun: 'bill', key: "the supplier's bill number", candidates: documents('invoices', 'purchase') },
  cn: { noun: 'credit note', key: 'the credit note number', candidates: documents('credit_notes', 'sales') },
  scn: { noun: 'supplier credit note', key: 'the credit note number', candidates: documents('credit_notes', 'purchase') },
  quo: {
    noun: 'quote',
    key: 'the quote number',
    async candidates(db, text) {
      const rows = await db
        .selectFrom('quotes as q')
        .innerJoin('contacts as c', 'c.id', 'q.contact_id')
        .select(['q.id', 'q.number', 'c.name'])
        .where(sameNumber('q.number', text))
        .execute();
      return rows.map((r) => ({ id: r.id, key: r.number, label: `${r.number} of ${r.name}` }));
    },
  },
};

/**
 * The bank account `text` names by its ledger account's code (1200), as its
 * id in text; else `text` itself, for the operation to read as an id. Two
 * bank accounts over one ledger account make the code ambiguous (400, both listed).
 */
export async function resolveBankAccount(db: Kysely<OrgDb>, text: string, field: string): Promise<string> {
  const rows = await db
    .selectFrom('bank_accounts as b')
    .innerJoin('accounts as a', 'a.id', 'b.account_id')
    .select(['b.id', 'b.account_name', 'a.code'])
    .where('a.code', '=', text.trim())
    .orderBy('b.id')
    .execute();
  if (rows.length === 0) return text;
  return pickOne(
    rows.map((r) => ({ id: String(r.id), key: r.code, label: `bank account ${r.id} ${r.account_name}` })),
    text.trim(),
    'bank account',
    field,
  );
}

/** Whether ids with this prefix can be given by a natural key. */
export const hasNaturalKey = (prefix: string): boolean => prefix in kinds;

/** What may be given instead of an id with this prefix ("the account code (4000) or name"), or null. */
export const naturalKeyOf = (prefix: string): string | null => kinds[prefix]?.key ?? null;

/**
 * The id `text` stands for: itself when it is already an id of the prefix
 * (or the prefix has no natural key, so that validation names it), else the
 * record its natural key names.
 */
export async function resolveReference(db: Kysely<OrgDb>, prefix: string, text: string, field: string): Promise<string> {
  const kind = kinds[prefix];
  if (!kind || idPattern(prefix).test(text)) return text;
  return pickOne(await kind.candidates(db, text), text, kind.noun, field);
}
