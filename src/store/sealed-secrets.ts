/** Sealing the secrets an older acct wrote in plain text, when their database is opened. */
import type { SqliteDatabase } from './sqlite.js';
import type { SecretBox } from './secret-box.js';

/**
 * Seal the webhook signing secrets still in plain text. secure_delete
 * overwrites the old text in the pages it leaves, and the truncating
 * checkpoint empties the WAL that held earlier copies of it. The update
 * matches the old text, so that two processes sealing at once both stand.
 */
export function sealPlainSecrets(database: SqliteDatabase, box: SecretBox): void {
  const plain = database.prepare("select id, secret from webhook_endpoints where substr(secret, 1, 5) <> 'enc1:'").all() as { id: string; secret: string }[];
  if (plain.length === 0) return;
  const update = database.prepare('update webhook_endpoints set secret = ? where id = ? and secret = ?');
  const secureDelete = database.pragma('secure_delete', { simple: true }) as number;
  database.pragma('secure_delete = ON');
  try {
    database
      .transaction(() => {
        for (const row of plain) update.run(box.seal(row.secret), row.id, row.secret);
      })
      .immediate();
  } finally {
    database.pragma(`secure_delete = ${secureDelete === 1 ? 'ON' : 'OFF'}`);
  }
  database.pragma('wal_checkpoint(TRUNCATE)');
}
