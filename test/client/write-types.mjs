// npm run client: write test/fixtures/acct-api.d.ts from the built registry (the test/client tests check it is current).
import fs from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { openApiDocument } from '../../dist/http/openapi.js';
import { operations } from '../../dist/engine/registry.js';

fs.writeFileSync(new URL('../fixtures/acct-api.d.ts', import.meta.url), COMMENT_HEADER + astToString(await openapiTS(openApiDocument(operations))));
