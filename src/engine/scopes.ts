/** The spec's 17 scopes, in the form resource:action. */
export const scopes = [
  'accounts:read',
  'accounts:write',
  'contacts:read',
  'contacts:write',
  'invoices:read',
  'invoices:write',
  'quotes:read',
  'quotes:write',
  'transactions:read',
  'transactions:write',
  'reports:read',
  'bank-imports:read',
  'bank-imports:write',
  'directors:read',
  'directors:write',
  'dividends:read',
  'dividends:write',
] as const;

export type Scope = (typeof scopes)[number];

export const scopeDescriptions: Readonly<Record<Scope, string>> = {
  'accounts:read': 'list and retrieve accounts',
  'accounts:write': 'create, update, delete accounts',
  'contacts:read': 'list and retrieve contacts',
  'contacts:write': 'create, update, deactivate contacts',
  'invoices:read': 'list, retrieve, download invoices',
  'invoices:write': 'create, update, delete, send invoices',
  'quotes:read': 'list and retrieve quotes',
  'quotes:write': 'create, update, delete, convert quotes',
  'transactions:read': 'list and retrieve transactions',
  'transactions:write': 'create, categorise, reconcile transactions',
  'reports:read': 'generate profit and loss, balance sheet, VAT returns',
  'bank-imports:read': 'list and retrieve bank imports',
  'bank-imports:write': 'upload, confirm, delete bank imports',
  'directors:read': 'list directors, DLA balances, snapshots',
  'directors:write': 'add, update, resign directors, manage DLA',
  'dividends:read': 'list dividends, board minutes, summaries',
  'dividends:write': 'declare, pay, void dividends',
};

export const isScope = (s: string): s is Scope => (scopes as readonly string[]).includes(s);
