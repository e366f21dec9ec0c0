/**
 * The data directory is its owner's alone: directories 0700, database
 * files 0600. SQLite gives a database's -wal and -shm files the mode of
 * the database file, so setting that one at creation covers all three;
 * files made by an older acct (0644) are tightened when opened.
 */
import fs from 'node:fs';

/** Create `dir` (and any missing parent) readable by its owner only. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Create `file` empty and 0600 unless it exists (an empty file is an empty SQLite database). */
export function createPrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/** Take group and other permissions off `file`, if it exists and is ours to change (another user's file is left as it is). */
export function restrictFile(file: string): void {
  try {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw e;
  }
}

/** A database file with the journal files SQLite keeps beside it in WAL mode. */
export const withJournals = (file: string): readonly string[] => [file, `${file}-wal`, `${file}-shm`];
