/**
 * The columns of a contacts export. The header is found by aliases below
 * any title lines (QuickBooks opens with "Contact List"), whatever product
 * wrote it. Besides the contact's own fields, a few source columns feed one
 * field: a name comes from the name column, else FreeAgent's Organisation,
 * else First and Last Name; a phone from the phone column, else the mobile;
 * a type from Contact Type, else Xero's IsCustomer and IsSupplier.
 */
import { columnsOf, headerSearchDepth, type Aliases } from '../../tabular/header-row.js';
import type { CsvRecord } from '../../tabular/csv-records.js';

export const contactFields = [
  'name',
  'company',
  'email',
  'phone',
  'addressLine1',
  'addressLine2',
  'city',
  'region',
  'postalCode',
  'country',
  'vatNumber',
  'companyNumber',
  'contactType',
  'paymentTerms',
] as const;
export type ContactField = (typeof contactFields)[number];

type SourceColumn = ContactField | 'organisation' | 'firstName' | 'lastName' | 'mobile' | 'isCustomer' | 'isSupplier' | 'salesTerm';

/** Most specific alias first; no cell serves two columns, so "Company name" is the company and never a name. */
export const contactAliases: Aliases<SourceColumn> = {
  name: ['contactname', 'name', 'contact name', 'display name', 'full name', 'customer', 'supplier', 'contact'],
  organisation: ['organisation', 'organization'],
  firstName: ['firstname', 'first name', 'forename'],
  lastName: ['lastname', 'last name', 'surname'],
  company: ['company', 'company name'],
  email: ['email', 'emailaddress', 'e-mail', 'email address'],
  phone: ['phone', 'phonenumber', 'phone number', 'telephone'],
  mobile: ['mobilenumber', 'mobile', 'mobile phone'],
  addressLine1: [
    'address',
    'address 1',
    'poaddressline1',
    'street',
    'address line 1',
    'billing address',
    'billing address line 1',
    'billing street',
    'bill address',
  ],
  addressLine2: ['address 2', 'poaddressline2', 'address line 2', 'billing address line 2'],
  city: ['city', 'town', 'pocity', 'billing address city', 'billing city'],
  region: ['region', 'county', 'poregion', 'billing address county', 'billing county', 'billing address state', 'billing state'],
  postalCode: ['postcode', 'post code', 'postal code', 'popostalcode', 'zip', 'billing address postal code', 'billing postcode', 'billing zip'],
  country: ['country', 'pocountry', 'billing address country', 'billing country'],
  vatNumber: ['vat number', 'taxnumber', 'vat registration number', 'vat registration no.', 'vat no', 'vat'],
  companyNumber: ['company number', 'companynumber', 'company registration number', 'crn'],
  contactType: ['contact type', 'type'],
  paymentTerms: ['payment terms', 'default payment terms (days)', 'terms', 'duedatesalesday'],
  salesTerm: ['duedatesalesterm'],
  isCustomer: ['iscustomer'],
  isSupplier: ['issupplier'],
};

export type ContactColumns = Partial<Record<SourceColumn, number>>;

export interface ContactHeader {
  /** Index of the header record. */
  readonly index: number;
  readonly columns: ContactColumns;
  /** Cells up to the last named one: a data row filling cells beyond it has its columns shifted. */
  readonly width: number;
  /** Each field's column, as the header text (several columns joined with " + "). */
  readonly columnMapping: Partial<Record<ContactField, string>>;
}

const hasName = (c: ContactColumns): boolean => c.name !== undefined || c.organisation !== undefined || c.firstName !== undefined || c.lastName !== undefined;

/** The first of the opening records that has a name column, or null. */
export function findContactHeader(records: readonly CsvRecord[]): ContactHeader | null {
  const depth = Math.min(records.length, headerSearchDepth);
  for (let index = 0; index < depth; index++) {
    const record = records[index] as CsvRecord;
    const columns = columnsOf(record.cells, contactAliases);
    if (hasName(columns)) {
      return { index, columns, width: record.cells.findLastIndex((c) => c !== '') + 1, columnMapping: mappingOf(record.cells, columns) };
    }
  }
  return null;
}

function mappingOf(cells: readonly string[], columns: ContactColumns): Partial<Record<ContactField, string>> {
  const text = (...sources: SourceColumn[]): string | undefined => {
    const names = sources.map((s) => columns[s]).flatMap((at) => (at === undefined ? [] : [cells[at] as string]));
    return names.length === 0 ? undefined : names.join(' + ');
  };
  const mapping: Partial<Record<ContactField, string>> = {};
  for (const field of contactFields) {
    const source = text(field);
    if (source !== undefined) mapping[field] = source;
  }
  const fallbacks: Partial<Record<ContactField, string | undefined>> = {
    name: mapping.name ?? text('organisation') ?? text('firstName', 'lastName'),
    phone: mapping.phone ?? text('mobile'),
    contactType: mapping.contactType ?? text('isCustomer', 'isSupplier'),
  };
  for (const [field, source] of Object.entries(fallbacks) as [ContactField, string | undefined][]) {
    if (source !== undefined) mapping[field] = source;
  }
  return mapping;
}
