/**
 * Natural keys: the things people know a record by, turned into its id for
 * the command line (the API keeps ids). An account by its code or name, a
 * contact by its name, an invoice, quote, bill or credit note by its
 * number, a director by full name. A name matches exactly (ignoring case,
 * as fold() does) first, then as a unique prefix; more than one match is a
 * 400 listing the candidates, none a 404.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import { AppError } from './errors.js';
import { idPattern } from './ids.js';
import { editDistance } from './edit-distance.js';
import { fold } from '../store/fold.js';
import type { OrgDb } from '../store/tables.js';

export interface Candidate {
  readonly id: string;
  /** What the person typed matches against: a name, a code, a number. */
  readonly key: string;
  /** How the candidate is listed when several match. */
  readonly label: string;
  /** Whether it is the kind of record the command wants (a customer for an invoice), when the command says; of several matches, the one that fits is taken. */
  readonly fits?: boolean;
  /** Another key it is known by, for "did you mean" only (an account's code where its name is the key). */
  readonly hint?: string;
}

/** The kind of contact a command wants: a customer for an invoice or quote, a supplier for a bill. */
export type ContactWanted = 'customer' | 'supplier';

/** The most candidates an ambiguity error lists. */
const listed = 8;

/**
 * The one candidate `text` names: an exact id, else an exact key (ignoring
 * case), else the only key it begins (ignoring case). Of several matches,
 * the only one that fits what the command wants is taken. `noun` says what
 * was looked for, `field` which flag or field it came from.
 */
export function pickOne(candidates: readonly Candidate[], text: string, noun: string, field: string): string {
  const byId = candidates.find((c) => c.id === text);
  if (byId) return byId.id;
  const wanted = fold(text.trim());
  // A record listed under two keys (a bank account's name and its ledger account's) is one match, not two.
  const once = (found: Candidate[]) => found.filter((c, i) => found.findIndex((d) => d.id === c.id) === i);
  const exact = once(candidates.filter((c) => fold(c.key) === wanted));
  if (exact.length === 1) return (exact[0] as Candidate).id;
  const matches = exact.length > 1 ? exact : once(candidates.filter((c) => fold(c.key).startsWith(wanted)));
  if (wanted !== '' && matches.length === 1) return (matches[0] as Candidate).id;
  if (wanted === '' || matches.length === 0) throw new AppError('not_found', `no ${noun} ${JSON.stringify(text)}${didYouMean(candidates, wanted)}`, field);
  const fitting = matches.filter((c) => c.fits === true);
  if (fitting.length === 1) return (fitting[0] as Candidate).id;
  const shown = matches.slice(0, listed).map((c) => `${c.label} (${c.id})`);
  const more = matches.length > listed ? `, and ${matches.length - listed} more` : '';
  // Keys all alike (two contacts of one name) leave only the id to tell them apart.
  const alike = matches.every((c) => fold(c.key) === fold((matches[0] as Candidate).key));
  throw new AppError(
    'validation_error',
    `${JSON.stringify(text)} matches ${matches.length} ${noun}s: ${shown.join('; ')}${more}; ${alike ? 'give the id' : 'give more of it, or the id'}`,
    field,
  );
}

/** The most candidates a "did you mean" names. */
const suggested = 3;

/**
 * "; did you mean …?" naming the candidates nearest `wanted` (folded), by a
 * key or a hint, at the fewest edits (editDistance, as the command line's
 * suggestions): at most 3 edits, and 1 in 4 of the longer word's letters
 * rounded up, so that a 4-digit code is one slip away and a name up to 3.
 * Empty when none is that near.
 */
function didYouMean(candidates: readonly Candidate[], wanted: string): string {
  if (wanted === '') return '';
  const near: { candidate: Candidate; shown: string; d: number }[] = [];
  for (const c of candidates) {
    for (const key of [c.key, c.hint]) {
      if (key === undefined || key === '') continue;
      const d = editDistance(wanted, fold(key));
      if (d <= Math.min(3, Math.ceil(Math.max(wanted.length, key.length) / 4))) {
        near.push({ candidate: c, shown: c.hint === undefined ? JSON.stringify(c.key) : `${JSON.stringify(c.key)} (${c.hint})`, d });
      }
    }
  }
  if (near.length === 0) return '';
  const fewest = Math.min(...near.map((n) => n.d));
  const shown = [...new Set(near.filter((n) => n.d === fewest).map((n) => n.shown))].slice(0, suggested);
  return `; did you mean ${shown.join(' or ')}?`;
}

interface Kind {
  readonly noun: string;
  /** What a person may give instead of the id, for help. */
  readonly key: string;
  readonly candidates: (db: Kysely<OrgDb>, text: string, wanted?: ContactWanted) => Promise<Candidate[]>;
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
      return chosen.map((r) => ({
        id: r.id,
        key: byCode.length > 0 ? r.code : r.name,
        label: `${r.code} ${r.name}`,
        ...(byCode.length > 0 ? {} : { hint: r.code }),
      }));
    },
  },
  cont: {
    noun: 'contact',
    key: "the contact's name, or its start",
    async candidates(db, text, kind) {
      const rows = await db.selectFrom('contacts').select(['id', 'name', 'contact_type', 'is_active']).orderBy('name').orderBy('id').execute();
      // Inactive contacts count only when no active one matches.
      const wanted = fold(text.trim());
      const active = rows.filter((r) => r.is_active === 1);
      const chosen = active.some((r) => fold(r.name).startsWith(wanted)) ? active : rows;
      return chosen.map((r) => {
        const type = r.contact_type === 'both' ? 'customer and supplier' : r.contact_type;
        const fits = kind === undefined ? {} : { fits: r.contact_type === kind || r.contact_type === 'both' };
        return { id: r.id, key: r.name, label: `${r.name}, ${type}${r.is_active ? '' : ', inactive'}`, ...fits };
      });
    },
  },
  dir: {
    noun: 'director',
    key: "the director's full name, or its start",
    async candidates(db, text) {
      const rows = await db.selectFrom('directors').select(['id', 'full_name', 'is_active']).orderBy('full_name').orderBy('id').execute();
      // Resigned directors count only when no active one matches, as inactive contacts do.
      const wanted = fold(text.trim());
      const active = rows.filter((r) => r.is_active === 1);
      const chosen = active.some((r) => fold(r.full_name).startsWith(wanted)) ? active : rows;
      return chosen.map((r) => ({ id: r.id, key: r.full_name, label: `${r.full_name}${r.is_active ? '' : ', resigned'}` }));
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
 * The bank account `text` names, as its id in text: by its ledger account's
 * code (1200), or, unless `text` is a number (then taken as the id), by its
 * ledger account's id (acc_…) or by its name or its ledger account's (exactly,
 * else a unique start, ignoring case; archived bank accounts only when no
 * active one matches). A number no code matches comes back as it is, for the
 * operation to read as an id; a name or acc_… id nothing matches is 404. Two
 * bank accounts over one ledger account make the code ambiguous (400, both listed).
 */
export async function resolveBankAccount(db: Kysely<OrgDb>, text: string, field: string): Promise<string> {
  const wanted = text.trim();
  const rows = await db
    .selectFrom('bank_accounts as b')
    .innerJoin('accounts as a', 'a.id', 'b.account_id')
    .select(['b.id', 'b.account_name', 'b.is_active', 'a.id as ledger_id', 'a.code', 'a.name'])
    .orderBy('b.id')
    .execute();
  const label = (r: (typeof rows)[number]) => `bank account ${r.id} ${r.account_name}`;
  const byKey = (chosen: typeof rows, key: (r: (typeof rows)[number]) => string): string =>
    pickOne(
      chosen.map((r) => ({ id: String(r.id), key: key(r), label: label(r) })),
      wanted,
      'bank account',
      field,
    );
  const byCode = rows.filter((r) => r.code === wanted);
  if (byCode.length > 0) return byKey(byCode, (r) => r.code);
  if (/^\d+$/.test(wanted)) return text;
  if (idPattern('acc').test(wanted))
    return byKey(
      rows.filter((r) => r.ledger_id === wanted),
      (r) => r.ledger_id,
    );
  const folded = fold(wanted);
  const active = rows.filter((r) => r.is_active === 1);
  const chosen = active.some((r) => fold(r.account_name).startsWith(folded) || fold(r.name).startsWith(folded)) ? active : rows;
  // Each bank account by its own name and by its ledger account's, where that differs.
  return pickOne(
    chosen.flatMap((r) => [
      { id: String(r.id), key: r.account_name, label: label(r) },
      ...(fold(r.name) === fold(r.account_name) ? [] : [{ id: String(r.id), key: r.name, label: label(r) }]),
    ]),
    wanted,
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
 * record its natural key names; a contact that fits `wanted` is taken
 * over others of the same name.
 */
export async function resolveReference(db: Kysely<OrgDb>, prefix: string, text: string, field: string, wanted?: ContactWanted): Promise<string> {
  const kind = kinds[prefix];
  if (!kind || idPattern(prefix).test(text)) return text;
  return pickOne(await kind.candidates(db, text, wanted), text, kind.noun, field);
}
