import fs from 'node:fs';

/** The release number, from package.json. */
export const version: string = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
