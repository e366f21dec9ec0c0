/** The URL an `acct serve` child prints once it listens; rejects if it exits first. */
export function listeningUrl(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`acct serve exited ${code}`)));
  });
}
