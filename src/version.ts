import fs from 'node:fs';
import { projectFile } from './paths.js';

/** The release number, from package.json. */
export const version: string = (JSON.parse(fs.readFileSync(projectFile('package.json'), 'utf8')) as { version: string }).version;
