/**
 * The nodes of the identity graph: one for each contact read from the file
 * (`row_3`) and one for each contact already in the books (`ledger_cont_…`),
 * with the keys that say two of them are one business. Hard keys are a VAT
 * number, a Companies House number and a company's own mail domain; the
 * comparable forms (normalised name, phone digits, compact postcode) feed
 * the exact-duplicate and similarity rules.
 */
import { normaliseName } from '../../tabular/similarity.js';
import { companyIdentity, emailDomain, phoneDigits, readPostcode, vatIdentity, type ContactType } from './contact-values.js';
import { isGenericMailDomain } from './generic-domains.js';
import type { ContactRow } from './read-contacts.js';

export interface LedgerContact {
  readonly id: string;
  readonly name: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly postalCode: string | null;
  readonly vatNumber: string | null;
  readonly companyNumber: string | null;
  readonly contactType: ContactType;
  readonly createdAt: string;
}

export interface IdentityNode {
  /** `row_${rowIndex}` or `ledger_${contactId}`. */
  readonly id: string;
  readonly name: string;
  readonly email: string | null;
  readonly vatNumber: string | null;
  /** The contact in the books, for a ledger node. */
  readonly contactId: string | null;
  readonly isLedger: boolean;
  /** "vat:GB123456789", "crn:01234567", "domain:acme.co.uk", and "link:row_1~row_4" for a link resolution. */
  readonly hardKeys: string[];
  readonly types: string[];
}

/** A node with the forms the rules compare. */
export interface GraphNode {
  readonly index: number;
  readonly node: IdentityNode;
  readonly row: ContactRow | null;
  readonly ledger: LedgerContact | null;
  readonly normName: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly postcode: string | null;
  readonly vat: string | null;
  readonly crn: string | null;
  readonly domain: string | null;
}

export const rowNodeId = (rowIndex: number): string => `row_${rowIndex}`;
export const ledgerNodeId = (contactId: string): string => `ledger_${contactId}`;
export const isLedgerNodeId = (id: string): boolean => id.startsWith('ledger_');

const typesOf = (type: ContactType | null): string[] => (type === null ? [] : type === 'both' ? ['customer', 'supplier'] : [type]);

interface Fields {
  readonly name: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly postalCode: string | null;
  readonly vatNumber: string | null;
  readonly companyNumber: string | null;
}

function compared(fields: Fields): Omit<GraphNode, 'index' | 'node' | 'row' | 'ledger'> {
  const email = fields.email === null || fields.email.trim() === '' ? null : fields.email.trim().toLowerCase();
  const domain = email === null || !email.includes('@') ? null : emailDomain(email);
  const postcode = fields.postalCode === null ? null : readPostcode(fields.postalCode);
  return {
    normName: normaliseName(fields.name),
    email,
    phone: phoneDigits(fields.phone),
    postcode: postcode === null ? null : postcode.replace(/ /g, ''),
    vat: vatIdentity(fields.vatNumber),
    crn: companyIdentity(fields.companyNumber),
    domain: domain === null || domain === '' || isGenericMailDomain(domain) ? null : domain,
  };
}

function hardKeysOf(c: Pick<GraphNode, 'vat' | 'crn' | 'domain'>): string[] {
  return [...(c.vat ? [`vat:${c.vat}`] : []), ...(c.crn ? [`crn:${c.crn}`] : []), ...(c.domain ? [`domain:${c.domain}`] : [])];
}

/** The file's rows first, in file order, then the ledger's contacts in the order given. */
export function graphNodes(rows: readonly ContactRow[], ledger: readonly LedgerContact[]): GraphNode[] {
  const nodes: GraphNode[] = [];
  for (const row of rows) {
    const c = compared(row);
    const node: IdentityNode = {
      id: rowNodeId(row.rowIndex),
      name: row.name,
      email: row.email,
      vatNumber: row.vatNumber,
      contactId: null,
      isLedger: false,
      hardKeys: hardKeysOf(c),
      types: typesOf(row.contactType),
    };
    nodes.push({ ...c, index: nodes.length, node, row, ledger: null });
  }
  for (const contact of ledger) {
    const c = compared(contact);
    const node: IdentityNode = {
      id: ledgerNodeId(contact.id),
      name: contact.name,
      email: contact.email,
      vatNumber: contact.vatNumber,
      contactId: contact.id,
      isLedger: true,
      hardKeys: hardKeysOf(c),
      types: typesOf(contact.contactType),
    };
    nodes.push({ ...c, index: nodes.length, node, row: null, ledger: contact });
  }
  return nodes;
}
