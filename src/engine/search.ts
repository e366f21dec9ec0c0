/** The `search` query parameter: a literal substring match over text columns, ignoring case. */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { fold } from '../store/fold.js';

/**
 * Whether any of the columns contains the text, ignoring case in every
 * script: `fold(column) like '%text%'` with the text folded the same way.
 * The text is literal: % and _ are escaped, with the escape character
 * declared (standard SQL); fold() is a function each store provides.
 */
export function containsText<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, columns: readonly string[], text: string): Expression<SqlBool> {
  const pattern = `%${fold(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return eb.or(columns.map((column) => sql<SqlBool>`fold(${sql.ref(column)}) like ${pattern} escape '\\'`));
}
