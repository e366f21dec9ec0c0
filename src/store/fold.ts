/**
 * fold(text): text as it is compared ignoring case, in every script and the
 * same on both stores. Lower case (Unicode's, not only A-Z), then one form
 * for the letters whose lower case differs by where it is done: İ lowers to
 * i with a combining dot in JavaScript and PostgreSQL's ICU, to a plain i in
 * libc, so it is i; a final sigma is ς in JavaScript and ICU, σ in libc, so
 * every sigma is σ. Then composed (NFC). Dotless ı stays ı; ẞ is ß; ß is
 * not ss (no full case folding). SQLite registers `fold` as a function (its
 * own lower() folds only A-Z); PostgreSQL gets `foldFunction`; search and
 * references fold the text people type with `fold`.
 */
const dottedI = 'i\u0307';

export const fold = (text: string): string => text.toLowerCase().replaceAll(dottedI, 'i').replaceAll('ς', 'σ').normalize('NFC');

/** The same as a PostgreSQL function (created with a schema's store objects, see postgres/schemas.ts). */
export const foldFunction = `CREATE OR REPLACE FUNCTION fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT normalize(translate(replace(lower($1), '${dottedI}', 'i'), 'ς', 'σ'), NFC) $$;`;
