/**
 * Examples of the generated commands, by command group and by operation
 * name, kept in one place that both `--help` and acct(1) are built from.
 * A test runs every example's words through the program, so an example
 * naming a command or flag that does not exist fails it.
 */

export const groupExamples: Readonly<Record<string, readonly string[]>> = {
  organisation: ['acct organisation get', 'acct organisation update --vat-number "GB 980 7806 84" --postal-code "SW1A 1AA"'],
  settings: [
    'acct settings get',
    'acct settings update --invoice-prefix ACME- --invoice-next-number 100',
    'acct settings update --vat-scheme flat_rate --vat-flat-rate-percent 12.5',
  ],
  accounts: [
    'acct accounts list',
    'acct accounts get 4000',
    'acct accounts balance 1200 --to 2026-03-31',
    'acct accounts create --code 5150 --name "Software" --account-type expense',
  ],
  transactions: [
    'acct transactions list --from 2026-Q1 --account-id 1200',
    'acct transactions get txn_…',
    'acct transactions account 1200 --from this-month',
    'acct post 2026-03-01 "Office chairs" 5100=120.00@20 1200=-144.00',
  ],
  contacts: [
    'acct contacts list --type customer',
    'acct contacts create --contact-type customer --name "Bob Ltd" --email bob@example.com',
    'acct contacts summary "Bob Ltd"',
  ],
  invoices: [
    'acct invoices create --contact-id "Bob Ltd" --item "Consulting;1.5;500.00;standard;4100"',
    'acct invoices send INV-0001',
    'acct invoices pay INV-0001 --amount 500.00 --date today',
    'acct invoices list --status overdue',
    'acct invoices pdf INV-0001 -o invoice.pdf',
  ],
  bills: [
    'acct bills create --contact-id "Paper Supplies" --bill-number PT-77 --item "Oak boards;40;21.50;standard"',
    'acct bills approve PT-77',
    'acct bills pay PT-77 --amount 1,032.00 --date today',
    'acct bills list --status approved',
  ],
  quotes: [
    'acct quotes create --contact-id "Bob Ltd" --item "Kitchen fit;1;4,800.00;standard"',
    'acct quotes status QT-0001 --status sent',
    'acct quotes status QT-0001 --status accepted',
    'acct quotes convert QT-0001',
  ],
  'credit-notes': [
    'acct credit-notes create --invoice-id INV-0001 --amount 60.00 --reason "Returned goods"',
    'acct credit-notes allocate CN-0001 --invoice-id INV-0002',
    'acct credit-notes refund CN-0001 --amount 40.00',
    'acct credit-notes pdf CN-0001 -o credit-note.pdf',
  ],
  report: [
    'acct report profit-loss --from fy2025 --comparative',
    'acct report balance-sheet --as-of last-quarter',
    'acct report trial-balance',
    'acct report vat --from 2026-Q1',
    'acct report aged-debtors --as-of 2026-03-31',
  ],
  keys: ['acct keys list', 'acct keys create --name CI --scopes reports:read,invoices:read', 'acct keys rotate key_…', 'acct keys revoke key_…'],
  periods: ['acct periods list', 'acct periods get period_20250401', 'acct periods close period_20250401'],
  webhooks: [
    'acct webhooks create --url https://example.com/hooks --events invoice.paid,invoice.sent',
    'acct webhooks list',
    'acct webhooks deliveries whe_… --status failed',
    'acct webhooks verify --secret "$SECRET" --timestamp "$TS" --signature "$SIG" --payload body.json',
  ],
  bank: [
    'acct bank import statement.csv',
    'acct bank inbox',
    'acct bank categorise txn_… 5100 --vat-rate 20 --vat-treatment inclusive',
    'acct bank accept --dry-run',
  ],
  dla: [
    'acct dla add --director-id "Jo Bloggs" --date 2026-03-31 --amount 1,500.00 --loan-type loan_to_director --description "Advance"',
    'acct dla balances --as-of 2026-03-31',
    'acct dla s455 --as-of 2026-03-31',
  ],
  dividends: [
    'acct dividends profit-check --financial-year-end 2026-03-31',
    'acct dividends declare --director-id "Jo Bloggs" --board-minutes-id bm_… --amount 5,000.00 --date 2026-03-31 --dry-run',
    'acct dividends pay div_… --date 2026-04-05',
    'acct dividends tax --gross-dividend 20,000.00 --other-income 12,570.00 --tax-year 2025/26',
  ],
  migrations: [
    'acct migrate --from xero --balances tb.csv --cutover 2025-03-31 --dry-run',
    'acct migrations create --provider xero --cutover-date 2025-03-31',
    'acct migrations validate mig_…',
    'acct migrations execute mig_…',
    'acct migrations history',
  ],
  vat: ['acct vat periods', 'acct vat show 2026-Q1', 'acct vat connect'],
  'bug-reports': [
    'acct bug-reports submit --title "VAT return box 6 is empty" --description "After importing March, box 6 shows £0.00" --severity high',
    'acct bug-reports list --status open',
    'acct bug-reports get bug_…',
  ],
  transparency: ['acct transparency entries --status resolved', 'acct transparency stats'],
  'early-access': ['acct early-access stats'],
  billing: [
    'acct billing status',
    'acct billing plans',
    'acct billing checkout --plan sole_trader --success-url https://example.com/thanks --cancel-url https://example.com/plans',
    'acct billing portal --return-url https://example.com/account',
  ],
  admin: [
    'acct admin orgs --search joinery',
    'acct admin update-org 0b6f3c1e-3f7a-4c1d-9a57-2d4f6e8b9c10 --trial-ends-on 2027-03-31',
    'acct admin audit-log --action USER_SUSPENDED',
    'acct admin bug-reports --status open --severity critical',
    'acct admin update-bug-report bug_… --status resolved --admin-notes "Fixed in 0.2.1"',
    'acct admin update-setting maintenance_mode --value true',
    'acct admin stats',
    'acct admin search --q acme',
    'acct admin failed-webhooks',
    'acct admin replay-webhooks',
    'acct admin create-user --email root@example.com --password "a long passphrase" --admin',
  ],
  users: [
    'acct users list --status locked',
    'acct users get usr_2',
    'acct users unlock usr_2',
    'acct users suspend usr_2 --reason "chargeback under review"',
    'acct users role usr_2 --role admin',
  ],
};

export const operationExamples: Readonly<Record<string, readonly string[]>> = {
  'admin.audit-log': ['acct admin audit-log --action SETTING_UPDATED', 'acct admin audit-log --entity-type bug_report --entity-id bug_…'],
  'admin.bug-reports': ['acct admin bug-reports --status open', 'acct admin bug-reports --organisation-id 0b6c8f0e-… --search VAT --per-page 50'],
  'admin.update-bug-report': [
    'acct admin update-bug-report bug_… --status investigating',
    'acct admin update-bug-report bug_… --status resolved --admin-notes "Fixed in 0.2.1"',
  ],
  'admin.delete-bug-reports': ['acct admin delete-bug-reports --ids bug_…,bug_…'],
  'admin.settings': ['acct admin settings', 'acct --json admin settings'],
  'admin.update-setting': ['acct admin update-setting maintenance_mode --value true', 'acct admin update-setting registration_enabled --value false'],
  'admin.search': ['acct admin search --q jo@example.com', 'acct admin search --q "Acme Ltd"'],
  'admin.replay-webhooks': ['acct admin replay-webhooks', 'acct admin replay-webhooks --delivery-ids 0b6c8f0e-6f4e-4d0a-9a57-5f1e2d3c4b5a'],
  'admin.clear-cache': ['acct admin clear-cache'],
  'bug-reports.submit': [
    'acct bug-reports submit --title "Invoice PDF cuts off the address" --description "The third address line is missing" --severity low',
    'acct bug-reports submit --body \'{"title":"Totals differ","description":"…","includeApiContext":true,"browserInfo":{"theme":"dark"}}\'',
  ],
  'organisation.update': [
    'acct organisation update --name "Acme Ltd" --email accounts@acme.example',
    'acct organisation update --address-line1 "1 High Street" --city London',
  ],
  'settings.update': [
    'acct settings update --invoice-prefix ACME- --invoice-next-number 100',
    'acct settings update --fiscal-year-start 04-01 --default-payment-terms 14',
  ],
  'accounts.list': ['acct accounts list', 'acct accounts list --type expense --flat'],
  'accounts.get': ['acct accounts get 4000', 'acct accounts get "Bank Account"'],
  'accounts.balance': ['acct accounts balance 1200', 'acct accounts balance 4000 --from fy2025'],
  'accounts.create': [
    'acct accounts create --code 5150 --name "Software" --account-type expense',
    'acct accounts create --code 1210 --name "Savings" --account-type asset --parent-id 1200',
  ],
  'transactions.create': [
    'acct transactions create --date 2026-03-01 --description "Bank charges" --body \'{"lines":[{"accountId":"5800","amount":500},{"accountId":"1200","amount":-500}]}\'',
    'acct post 2026-03-01 "Bank charges" 5800=5.00 1200=-5.00',
  ],
  'transactions.list': ['acct transactions list --from 2026-Q1', 'acct transactions list --account-id 1200 --reconciled false --search chairs'],
  'transactions.get': ['acct transactions get txn_…'],
  'transactions.ledger': ['acct transactions account 1200 --from 2026-01-01 --to 2026-03-31'],
  'contacts.list': ['acct contacts list --type supplier', 'acct contacts list --search bob'],
  'contacts.create': [
    'acct contacts create --contact-type customer --name "Bob Ltd" --email bob@example.com --payment-terms 14',
    'acct contacts create --contact-type supplier --name "Paper Supplies" --vat-number "GB 980 7806 84"',
  ],
  'contacts.get': ['acct contacts get "Bob Ltd"'],
  'contacts.update': ['acct contacts update "Bob Ltd" --email accounts@bob.example'],
  'invoices.create': [
    'acct invoices create --contact-id "Bob Ltd" --item "Consulting;1.5;500.00;standard;4100"',
    'acct invoices create --contact-id "Bob Ltd" --item "Oak table;1;1,250.00;standard" --item "Delivery;1;40.00;standard" --due-days 14 --reference PO-1234',
    'acct invoices create --contact-id cont_… --issue-date 2026-03-31 --notes "Thank you for your business" --item "Repairs;3;85.00;reduced"',
  ],
  'invoices.preview': ['acct invoices preview --contact-id "Bob Ltd" --item "Consulting;1.5;500.00;standard"'],
  'invoices.send': ['acct invoices send INV-0001', 'acct invoices send INV-0001 --send-email --smtp smtp://user:pass@mail.example.com:587'],
  'invoices.pay': [
    'acct invoices pay INV-0001 --amount 500.00 --date today',
    'acct invoices pay INV-0001 --amount 1,250.00 --date today --method card --reference "Card 1234"',
  ],
  'invoices.list': ['acct invoices list', 'acct invoices list --status overdue', 'acct invoices list --contact-id "Bob Ltd" --from 2026-Q1'],
  'invoices.get': ['acct invoices get INV-0001', 'acct --json invoices get inv_…'],
  'invoices.pdf': ['acct invoices pdf INV-0001 -o invoice.pdf'],
  'invoices.void': ['acct invoices void INV-0001'],
  'bills.create': ['acct bills create --contact-id "Paper Supplies" --bill-number PT-77 --item "Oak boards;40;21.50;standard"'],
  'bills.pay': [
    'acct bills pay PT-77 --amount 1,032.00 --date today',
    'acct bills pay PT-77 --amount 1,032.00 --date yesterday --method card --reference "Card 1234"',
  ],
  'bills.list': ['acct bills list --status approved --from 2026-Q1'],
  'quotes.create': ['acct quotes create --contact-id "Bob Ltd" --item "Kitchen fit;1;4,800.00;standard"'],
  'quotes.convert': ['acct quotes convert QT-0001'],
  'credit-notes.create': [
    'acct credit-notes create --invoice-id INV-0001',
    'acct credit-notes create --invoice-id INV-0001 --amount 60.00 --reason "Returned goods"',
    'acct credit-notes create --invoice-id INV-0001 --line-ids line_…',
  ],
  'credit-notes.allocate': ['acct credit-notes allocate CN-0001 --invoice-id INV-0002 --amount 60.00'],
  'credit-notes.refund': ['acct credit-notes refund CN-0001 --amount 40.00 --date today'],
  'reports.profit-loss': [
    'acct report profit-loss',
    'acct report profit-loss --from fy2025 --comparative',
    'acct report profit-loss --from 2026-01 --to 2026-03 --csv',
  ],
  'reports.balance-sheet': [
    'acct report balance-sheet',
    'acct report balance-sheet --as-of last-quarter',
    'acct --json report balance-sheet --as-of 2026-03-31',
  ],
  'reports.trial-balance': ['acct report trial-balance', 'acct report trial-balance --as-of last-fy --csv'],
  'reports.general-ledger': ['acct report general-ledger --from 2026-Q1', 'acct report general-ledger --from fy2025 --account-id 1200 --csv'],
  'reports.vat': ['acct report vat --from 2026-Q1', 'acct report vat --from 2026-01-01 --to 2026-03-31'],
  'reports.dashboard': ['acct report dashboard', 'acct --json report dashboard'],
  'reports.aged-debtors': ['acct report aged-debtors', 'acct report aged-debtors --as-of 2026-03-31'],
  'reports.aged-creditors': ['acct report aged-creditors', 'acct report aged-creditors --as-of last-month --csv'],
  'keys.create': [
    'acct keys create --name CI --scopes reports:read',
    'acct keys create --name "Shop sync" --scopes invoices:read,invoices:write,contacts:read',
  ],
  'keys.rotate': ['acct keys rotate key_…'],
  'keys.revoke': ['acct keys revoke key_…'],
  'periods.close': ['acct periods close period_20250401'],
  'webhooks.create': [
    'acct webhooks create --url https://example.com/hooks --events invoice.paid',
    'acct webhooks create --url https://example.com/hooks --events invoice.paid,invoice.sent --description "Shop"',
  ],
  'webhooks.update': ['acct webhooks update whe_… --is-active false'],
  'webhooks.deliveries': ['acct webhooks deliveries whe_… --status failed'],
  'bank.inbox': ['acct bank inbox', 'acct bank inbox --limit 20'],
  'director-loans.create': ['acct dla add --director-id "Jo Bloggs" --date 2026-03-31 --amount 1,500.00 --loan-type loan_to_director --description "Advance"'],
  'director-loans.balances': ['acct dla balances', 'acct dla balances --as-of 2026-03-31'],
  'director-loans.s455': ['acct dla s455 --as-of 2026-03-31'],
  'dividends.profit-check': ['acct dividends profit-check --financial-year-end 2026-03-31'],
  'dividends.declare': ['acct dividends declare --director-id "Jo Bloggs" --board-minutes-id bm_… --amount 5,000.00 --date 2026-03-31 --dry-run'],
  'dividends.pay': ['acct dividends pay div_… --date 2026-04-05'],
  'dividends.tax': ['acct dividends tax --gross-dividend 20,000.00 --other-income 12,570.00 --tax-year 2025/26'],
  'migrations.create': ['acct migrations create --provider xero --cutover-date 2025-03-31'],
  'migrations.validate': ['acct migrations validate mig_…'],
  'migrations.execute': ['acct migrations execute mig_…'],
};

/** The "Examples:" section of a command's --help. */
export function examplesSection(examples: readonly string[]): string {
  return `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`;
}
