/** The `search` query parameter: a literal substring match over text columns. */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';

/**
 * `column like '%text%'` for each column, any of them matching. The text is
 * literal: % and _ are escaped, with the escape character declared (standard SQL).
 */
export function containsText<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, columns: readonly string[], text: string): Expression<SqlBool> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return eb.or(columns.map((column) => sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`));
}
