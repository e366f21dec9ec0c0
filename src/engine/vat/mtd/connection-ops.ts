/**
 * Connecting the books to HMRC (OAuth 2.0, authorisation code grant): the
 * address where the user grants acct access, the code HMRC sends back
 * exchanged for tokens, and the state of the connection. acct vat connect
 * drives these with a loopback redirect; an API client can do the same
 * with a redirect of its own.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineOperation, orgOf, type Ctx } from '../../operation.js';
import { instant } from '../../output.js';
import { authorisationUrl, exchangeCode } from './oauth.js';
import { readTokens, saveGrant } from './tokens.js';
import { credentialsOf, hmrcSettingsOf } from './settings.js';

const redirectUri = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL registered with your HMRC application' });

const connectionSchema = z.strictObject({
  connected: z.boolean(),
  hmrcBaseUrl: z.string(),
  scope: z.string().nullable(),
  connectedAt: instant().nullable(),
  refreshedAt: instant().nullable(),
  accessExpiresAt: instant().nullable(),
});

async function connectionView(ctx: Ctx): Promise<z.input<typeof connectionSchema>> {
  const settings = hmrcSettingsOf(ctx);
  const row = await readTokens(orgOf(ctx).db);
  const here = row !== undefined && row.base_url === settings.baseUrl;
  return {
    connected: here,
    hmrcBaseUrl: settings.baseUrl,
    scope: here ? row.scope : null,
    connectedAt: here ? row.connected_at : null,
    refreshedAt: here ? row.refreshed_at : null,
    accessExpiresAt: here ? row.expires_at : null,
  };
}

export const getConnection = defineOperation({
  name: 'vat.connection',
  summary: 'Whether the books are connected to HMRC (Making Tax Digital), since when, and with which scope',
  description: 'Connected means tokens issued by the HMRC of the base URL in use (--hmrc-base-url, ACCT_HMRC_BASE_URL; HMRC’s sandbox by default).',
  access: 'reports:read',
  method: 'GET',
  path: '/vat/connection',
  output: connectionSchema,
  run: async (ctx) => ({ data: await connectionView(ctx) }),
});

export const authorisationUrlOp = defineOperation({
  name: 'vat.authorisation-url',
  summary: 'The HMRC address where the user signs in and grants acct access to the VAT API, and the state to expect back',
  description:
    'HMRC sends the browser back to redirectUri with ?code=…&state=…; check the state, then POST /vat/connection with the code. ' +
    'acct vat connect does all of this with a loopback redirect. Needs ACCT_HMRC_CLIENT_ID and ACCT_HMRC_CLIENT_SECRET.',
  access: 'all-scopes',
  method: 'GET',
  path: '/vat/connection/authorisation-url',
  query: { redirectUri },
  output: z.strictObject({ url: z.string(), state: z.string() }),
  run(ctx, input) {
    const settings = hmrcSettingsOf(ctx);
    const state = randomBytes(16).toString('hex');
    return Promise.resolve({ data: { url: authorisationUrl(settings, credentialsOf(settings), input.redirectUri, state), state } });
  },
});

export const authorise = defineOperation({
  name: 'vat.authorise',
  summary: 'Connect the books to HMRC: exchange the authorisation code HMRC sent back for tokens, and keep them',
  description: 'redirectUri must be the one the authorisation URL was made with. Replaces any earlier connection.',
  access: 'all-scopes',
  method: 'POST',
  path: '/vat/connection',
  body: { code: z.string().min(1).max(512), redirectUri },
  // The authorisation code is a credential until HMRC has exchanged it: not kept in the request log.
  bodySecrets: ['code'],
  output: connectionSchema,
  async external(ctx, input) {
    const settings = hmrcSettingsOf(ctx);
    const grant = await exchangeCode(settings, credentialsOf(settings), input.code, input.redirectUri);
    await saveGrant(ctx, orgOf(ctx), settings.baseUrl, grant);
  },
  run: async (ctx) => ({ data: await connectionView(ctx) }),
});
