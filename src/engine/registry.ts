/** Every operation of the engine. The HTTP routes, CLI commands, OpenAPI and man pages come from this list. */
import type { Operation } from './operation.js';
import { health } from './platform/health.js';
import { getOrganisation, updateOrganisation } from './organisation/profile.js';
import { getSettings, updateSettings } from './organisation/settings.js';
import { closePeriodOp, getPeriodOp, listPeriodsOp } from './ledger/periods.js';
import { createKey, listKeys, listScopes, revokeKey, rotateKey } from './integration/api-keys.js';
import { accountBalance, accountTypesOp, createAccount, deleteAccount, getAccount, listAccounts, updateAccount } from './ledger/accounts.js';
import {
  createTransactionOp,
  deleteTransactionOp,
  getTransaction,
  listTransactions,
  reconcileOp,
  setStatusOp,
  updateTransaction,
} from './ledger/transactions.js';
import { accountLedgerOp } from './ledger/account-ledger.js';
import { contactSummary, createContact, deleteContact, getContact, listContacts, updateContact } from './sales/contacts.js';
import {
  createInvoice,
  deleteInvoice,
  getInvoice,
  invoicePdfOp,
  listInvoices,
  previewInvoice,
  recordInvoicePayment,
  sendInvoice,
  setInvoiceStatus,
  updateInvoice,
  voidInvoiceOp,
} from './sales/invoices.js';
import { sweepOp } from './sales/overdue.js';
import { approveBill, createBill, deleteBill, getBill, listBills, payBill, updateBill, voidBill } from './sales/bills.js';
import { convertQuote, createQuote, deleteQuote, getQuote, listQuotes, previewQuote, setQuoteStatus, updateQuote } from './sales/quotes.js';
import { balanceSheetOp, generalLedgerOp, profitLossOp, trialBalanceOp, vatReturnOp } from './reports/operations.js';

export const operations: readonly Operation[] = [
  health,
  getOrganisation,
  updateOrganisation,
  getSettings,
  updateSettings,
  listPeriodsOp,
  getPeriodOp,
  closePeriodOp,
  listKeys,
  listScopes,
  createKey,
  rotateKey,
  revokeKey,
  listAccounts,
  accountTypesOp,
  getAccount,
  accountBalance,
  createAccount,
  updateAccount,
  deleteAccount,
  createTransactionOp,
  getTransaction,
  listTransactions,
  updateTransaction,
  setStatusOp,
  reconcileOp,
  deleteTransactionOp,
  accountLedgerOp,
  listContacts,
  createContact,
  getContact,
  updateContact,
  deleteContact,
  contactSummary,
  listInvoices,
  createInvoice,
  previewInvoice,
  getInvoice,
  updateInvoice,
  deleteInvoice,
  sendInvoice,
  invoicePdfOp,
  recordInvoicePayment,
  voidInvoiceOp,
  setInvoiceStatus,
  sweepOp,
  listQuotes,
  createQuote,
  previewQuote,
  getQuote,
  updateQuote,
  deleteQuote,
  setQuoteStatus,
  convertQuote,
  listBills,
  createBill,
  getBill,
  updateBill,
  deleteBill,
  approveBill,
  payBill,
  voidBill,
  profitLossOp,
  balanceSheetOp,
  trialBalanceOp,
  generalLedgerOp,
  vatReturnOp,
];
