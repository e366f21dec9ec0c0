/**
 * Where each operation group's operations are declared, so that a run that
 * names one group (`acct report trial-balance`) loads that group's modules
 * only, not the whole registry: evaluating every area's schemas and
 * operations was most of a short command's start-up. Each loader returns
 * its group's operations in the registry's order (operations declared in
 * lists may bring others, which operationsOfGroup() leaves out).
 *
 * src/engine/registry.ts stays the list of every operation;
 * test/cli/operation-groups.test.ts checks that this index gives exactly
 * the registry's operations of each group, in order, and every group.
 */
import type { Operation } from '../engine/operation.js';

const groups: Readonly<Record<string, () => Promise<readonly Operation[]>>> = {
  health: async () => {
    const m0 = await import('../engine/platform/health.js');
    return [m0.health];
  },
  registration: async () => {
    const m0 = await import('../engine/users/registration-ops.js');
    return [m0.register];
  },
  auth: async () => {
    const m0 = await import('../engine/users/login-ops.js');
    const m1 = await import('../engine/users/totp-ops.js');
    return [m0.login, m0.refresh, m0.me, m0.logout, m0.changePassword, m1.totpSetup, m1.totpEnable, m1.totpVerify, m1.totpDisable];
  },
  'email-verification': async () => {
    const m0 = await import('../engine/users/email-ops.js');
    return [m0.sendVerification, m0.verifyEmail, m0.verificationStatus];
  },
  'password-reset': async () => {
    const m0 = await import('../engine/users/email-ops.js');
    return [m0.forgotPassword, m0.validateReset, m0.resetPassword];
  },
  organisation: async () => {
    const m0 = await import('../engine/organisation/organisation-ops.js');
    return [m0.getOrganisation, m0.updateOrganisation];
  },
  settings: async () => {
    const m0 = await import('../engine/settings/settings-ops.js');
    return [m0.getSettings, m0.updateSettings];
  },
  periods: async () => {
    const m0 = await import('../engine/reports/period-ops.js');
    return [m0.listPeriodsOp, m0.getPeriodOp, m0.closePeriodOp];
  },
  keys: async () => {
    const m0 = await import('../engine/integration/key-ops.js');
    return [m0.listKeys, m0.listScopes, m0.createKey, m0.rotateKey, m0.revokeKey, m0.renameKey];
  },
  webhooks: async () => {
    const m0 = await import('../engine/integration/webhook-ops.js');
    return [m0.listWebhooks, m0.createWebhook, m0.updateWebhook, m0.deleteWebhook, m0.rotateWebhook, m0.listDeliveries];
  },
  'request-log': async () => {
    const m0 = await import('../engine/integration/request-log.js');
    return [m0.listRequests, m0.getRequest];
  },
  accounts: async () => {
    const m0 = await import('../engine/ledger/account-ops.js');
    return [m0.listAccounts, m0.accountTypesOp, m0.getAccount, m0.accountBalance, m0.createAccount, m0.updateAccount, m0.deleteAccount];
  },
  'bank-accounts': async () => {
    const m0 = await import('../engine/banking/bank-account-ops.js');
    return [
      m0.listBankAccountsOp,
      m0.getBankAccountOp,
      m0.createBankAccountOp,
      m0.updateBankAccountOp,
      m0.archiveBankAccountOp,
      m0.unreconciledOp,
      m0.reconcileBankAccountOp,
    ];
  },
  'categorisation-rules': async () => {
    const m0 = await import('../engine/banking/rule-ops.js');
    return [m0.listRulesOp, m0.globalRulesOp, m0.createRuleOp, m0.updateRuleOp, m0.deleteRuleOp, m0.reorderRulesOp, m0.testRulesOp, m0.categoriseRowOp];
  },
  transactions: async () => {
    const [m0, m1, m2] = await Promise.all([
      import('../engine/banking/rule-ops.js'),
      import('../engine/ledger/transaction-ops.js'),
      import('../engine/banking/match-ops.js'),
    ]);
    return [
      m0.suggestCategoryOp,
      m2.matchBankLineOp,
      m1.createTransactionOp,
      m1.getTransaction,
      m1.listTransactions,
      m1.updateTransaction,
      m1.setStatusOp,
      m1.reconcileOp,
      m1.categoriseOp,
      m1.deleteTransactionOp,
      m1.accountLedgerOp,
    ];
  },
  bank: async () => {
    const m0 = await import('../engine/banking/rule-ops.js');
    return [m0.inboxOp];
  },
  'bank-imports': async () => {
    const m0 = await import('../engine/banking/bank-import-ops.js');
    return [m0.uploadImportOp, m0.listImportsOp, m0.getImportOp, m0.remapImportOp, m0.confirmImportOp, m0.deleteImportOp, m0.undoImportOp];
  },
  import: async () => {
    const m0 = await import('../engine/imports/import-ops.js');
    return [m0.listImports, m0.getImport, m0.undoImport];
  },
  'contact-imports': async () => {
    const m0 = await import('../engine/imports/contact-import-ops.js');
    return [...m0.contactImportOperations];
  },
  'opening-balances': async () => {
    const m0 = await import('../engine/imports/opening-balance-ops.js');
    return [...m0.openingBalanceOperations];
  },
  'invoice-imports': async () => {
    const m0 = await import('../engine/imports/document-import-ops.js');
    return [...m0.invoiceImportOperations];
  },
  'bill-imports': async () => {
    const m0 = await import('../engine/imports/document-import-ops.js');
    return [...m0.billImportOperations];
  },
  migrations: async () => {
    const m0 = await import('../engine/imports/migration-ops.js');
    return [...m0.migrationOperations];
  },
  contacts: async () => {
    const m0 = await import('../engine/sales/contact-ops.js');
    return [m0.listContacts, m0.createContact, m0.getContact, m0.updateContact, m0.deleteContact, m0.getContactSummary];
  },
  invoices: async () => {
    const m0 = await import('../engine/sales/invoice-ops.js');
    return [
      m0.listInvoices,
      m0.createInvoice,
      m0.previewInvoice,
      m0.getInvoice,
      m0.updateInvoice,
      m0.deleteInvoice,
      m0.sendInvoice,
      m0.invoicePdfOp,
      m0.recordInvoicePayment,
      m0.removeInvoicePayment,
      m0.voidInvoiceOp,
      m0.setInvoiceStatus,
      m0.sweepOp,
    ];
  },
  quotes: async () => {
    const m0 = await import('../engine/sales/quote-ops.js');
    return [m0.listQuotes, m0.createQuote, m0.previewQuote, m0.getQuote, m0.updateQuote, m0.deleteQuote, m0.setQuoteStatus, m0.convertQuote];
  },
  bills: async () => {
    const m0 = await import('../engine/sales/bill-ops.js');
    return [m0.listBills, m0.createBill, m0.getBill, m0.updateBill, m0.deleteBill, m0.approveBill, m0.payBill, m0.removeBillPayment, m0.voidBill];
  },
  'credit-notes': async () => {
    const m0 = await import('../engine/sales/credit-note-ops.js');
    return [...m0.creditNoteOperations];
  },
  'supplier-credit-notes': async () => {
    const m0 = await import('../engine/sales/credit-note-ops.js');
    return [...m0.supplierCreditNoteOperations];
  },
  report: async () => {
    const m0 = await import('../engine/reports/operations.js');
    return [m0.profitLossOp, m0.balanceSheetOp, m0.trialBalanceOp, m0.generalLedgerOp, m0.vatReturnOp, m0.dashboardOp, m0.agedDebtorsOp, m0.agedCreditorsOp];
  },
  vat: async () => {
    const [m0, m1, m2, m3] = await Promise.all([
      import('../engine/vat/vat-ops.js'),
      import('../engine/vat/mtd/connection-ops.js'),
      import('../engine/vat/mtd/mtd-ops.js'),
      import('../engine/vat/mtd/submit-op.js'),
    ]);
    return [
      m0.vatPeriodsOp,
      m0.vatPeriodReturnOp,
      m0.fileVatReturnOp,
      m0.listVatReturnsOp,
      m0.getVatReturnOp,
      m1.getConnection,
      m1.authorisationUrlOp,
      m1.authorise,
      m2.obligationsOp,
      m3.submitReturnOp,
      m2.hmrcReturnOp,
      m2.liabilitiesOp,
      m2.paymentsOp,
    ];
  },
  directors: async () => {
    const m0 = await import('../engine/company/director-ops.js');
    return [m0.listDirectorsOp, m0.addDirectorOp, m0.getDirectorOp, m0.updateDirectorOp, m0.resignDirectorOp];
  },
  dla: async () => {
    const m0 = await import('../engine/company/dla-ops.js');
    return [m0.addDlaOp, m0.listDlaOp, m0.balancesOp, m0.balanceOp, m0.s455SummaryOp, m0.snapshotOp, m0.snapshotsOp];
  },
  dividends: async () => {
    const m0 = await import('../engine/company/dividend-ops.js');
    return [
      m0.profitCheckOp,
      m0.recordMinutesOp,
      m0.listMinutesOp,
      m0.getMinutesOp,
      m0.planDividendOp,
      m0.declareDividendOp,
      m0.listDividendsOp,
      m0.getDividendOp,
      m0.payDividendOp,
      m0.voidDividendOp,
      m0.dividendSummaryOp,
      m0.taxCalculatorOp,
      m0.voucherOp,
      m0.minutesPdfOp,
    ];
  },
  company: async () => {
    const m0 = await import('../engine/company/dividend-ops.js');
    return [m0.yearEndOp];
  },
  'bug-reports': async () => {
    const m0 = await import('../engine/platform/bug-reports.js');
    return [m0.submitBugReport, m0.listBugReports, m0.getBugReport];
  },
  transparency: async () => {
    const m0 = await import('../engine/platform/transparency.js');
    return [m0.transparencyEntries, m0.transparencyStats];
  },
  'early-access': async () => {
    const m0 = await import('../engine/platform/early-access.js');
    return [m0.earlyAccessStats];
  },
  billing: async () => {
    const m0 = await import('../engine/billing/billing-ops.js');
    const m1 = await import('../engine/billing/webhook-op.js');
    return [m0.plansOp, m0.statusOp, m0.checkoutOp, m0.portalOp, m1.webhookOp];
  },
  admin: async () => (await import('../engine/admin/admin-ops.js')).adminOperations,
  users: async () => (await import('../engine/admin/admin-ops.js')).adminOperations,
};

/** The operation groups of the registry. */
export const operationGroupNames: readonly string[] = Object.keys(groups);

/** The operations of one group, in the registry's order; undefined when no group has that name. */
export async function operationsOfGroup(group: string): Promise<readonly Operation[] | undefined> {
  const load = Object.hasOwn(groups, group) ? groups[group] : undefined;
  if (!load) return undefined;
  return (await load()).filter((op) => op.cli.group === group);
}
