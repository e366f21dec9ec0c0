/** The typed client's types: openapi-typescript over the OpenAPI document the registry generates. */
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { openApiDocument } from '../../src/http/openapi.js';
import { operations } from '../../src/engine/registry.js';
import { projectFile } from '../../src/paths.js';

export const fixture = projectFile('test/fixtures/acct-api.d.ts');

export async function clientTypes(): Promise<string> {
  return COMMENT_HEADER + astToString(await openapiTS(openApiDocument(operations) as unknown as OpenAPI3));
}
