/** A database URL's shape and its text for messages: all the CLI needs before it loads the PostgreSQL store (and pg) itself. */

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//.test(url);

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
