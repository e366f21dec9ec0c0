/**
 * Secrets kept at rest (webhook signing secrets), sealed with AES-256-GCM
 * under a key of the data directory's own: `secret.key`, 0600, made on
 * first need. A database copied without that file reveals none of them.
 * Sealed text is `enc1:` and base64url of IV, tag and ciphertext; text
 * without the marker was written before sealing and is read as it is.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const marker = 'enc1:';
const keyBytes = 32;
const ivBytes = 12;
const tagBytes = 16;

export interface SecretBox {
  /** `plain` sealed under the data directory's key (made now if there is none). */
  seal(plain: string): string;
  /** The secret of sealed text (unsealed text as it is); throws when this data directory's key cannot open it. */
  open(stored: string): string;
}

export const isSealed = (stored: string): boolean => stored.startsWith(marker);

export const keyFile = (dataDir: string): string => path.join(dataDir, 'secret.key');

function readKey(file: string): Buffer | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== keyBytes) throw new Error(`${file} does not hold a ${keyBytes}-byte key`);
  return key;
}

/**
 * A new key, written whole under a temporary name and linked into place:
 * of two processes making one at once, the second to link finds the
 * first's key and uses that.
 */
function makeKey(file: string): Buffer {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(temporary, `${randomBytes(keyBytes).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temporary, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    fs.unlinkSync(temporary);
  }
  const key = readKey(file);
  if (!key) throw new Error(`${file} vanished as it was made`);
  return key;
}

export function secretBoxOf(dataDir: string): SecretBox {
  const file = keyFile(dataDir);
  let key: Buffer | null = null;
  const known = (): Buffer | null => (key ??= readKey(file));
  return {
    seal(plain) {
      const k = known() ?? (key = makeKey(file));
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', k, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return marker + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const k = known();
      // The messages name no path: they reach the delivery log, which API keys read.
      if (!k) throw new Error('the secret was sealed with a key this data directory does not have (its secret.key is missing)');
      const bytes = Buffer.from(stored.slice(marker.length), 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', k, bytes.subarray(0, ivBytes));
        decipher.setAuthTag(bytes.subarray(ivBytes, ivBytes + tagBytes));
        return Buffer.concat([decipher.update(bytes.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
      } catch {
        throw new Error("the secret was sealed with another data directory's secret.key");
      }
    },
  };
}
