/**
 * Help text of command groups and of the hand-written commands, kept in
 * one place that both `--help` and the man page are built from.
 */

/**
 * A command group's help line: what the group is about, then the commands
 * it names, each item starting with the command's own word as typed (the
 * rest says what it does). Rendered `about: command, command (gloss), …`.
 */
interface GroupSummary {
  readonly about: string;
  readonly commands: readonly string[];
}

const groups: Readonly<Record<string, GroupSummary>> = {
  organisation: { about: 'The organisation profile (name, address, VAT and company numbers)', commands: ['get', 'update'] },
  settings: {
    about: 'Organisation settings (currency, VAT scheme, fiscal year, invoice and quote numbering)',
    commands: ['get', 'update'],
  },
  periods: { about: 'Financial periods (fiscal years)', commands: ['list', 'get', 'close'] },
  keys: { about: 'API keys', commands: ['create', 'list', 'scopes', 'rotate', 'rename', 'revoke'] },
  accounts: { about: 'The chart of accounts', commands: ['list', 'types', 'get', 'balance', 'create', 'update', 'delete'] },
  transactions: {
    about: 'Transactions',
    commands: [
      'create (record one)',
      'list',
      'get',
      'update',
      'status (post a draft, or back to draft)',
      'reconcile',
      'categorise',
      'account (an account ledger)',
    ],
  },
  report: {
    about: 'Reports from posted transactions, as tables in pounds, --csv, or --json (pence)',
    commands: ['profit-loss', 'balance-sheet', 'trial-balance', 'general-ledger', 'vat', 'dashboard', 'aged-debtors', 'aged-creditors'],
  },
  contacts: { about: 'Customers and suppliers', commands: ['list', 'create', 'update', 'delete', "summary (a contact's transactions and balance)"] },
  invoices: {
    about: 'Sales invoices',
    commands: ['create', 'preview', 'send (e-mail)', 'pdf', 'pay', 'remove-payment', 'void', 'sweep (the overdue sweep)'],
  },
  'credit-notes': { about: 'Credit notes against invoices', commands: ['create (whole, lines or an amount)', 'allocate', 'refund', 'void', 'pdf'] },
  'supplier-credit-notes': { about: "Suppliers' credit notes against bills", commands: ['create', 'allocate', 'refund (a refund received)', 'void'] },
  quotes: { about: 'Quotes', commands: ['create', 'preview', 'status (sent, accepted or rejected)', 'convert (to an invoice)'] },
  bills: { about: 'Purchase bills', commands: ['create', 'approve', 'pay', 'remove-payment', 'void'] },
  webhooks: {
    about: 'Webhook subscriptions',
    commands: ['create', 'update', 'rotate (the secret)', 'delete', 'list (with delivery stats)', 'deliveries', 'verify'],
  },
  'request-log': { about: 'The API request log of the last 30 days', commands: ['list', 'get'] },
  import: { about: 'Bulk loads into the books', commands: ['journal (import a journal)', 'list', 'get', 'undo (an import)'] },
  'contact-imports': {
    about: 'Contacts from a CSV export',
    commands: ['upload', 'get (preview the merges)', 'resolve (conflicts: link, split, skip)', 'confirm'],
  },
  'opening-balances': { about: 'Opening balances from a trial balance export', commands: ['upload', 'map (fix a mapping)', 'confirm', 'void', 'status'] },
  'invoice-imports': {
    about: 'Outstanding sales invoices from an export, against the clearing account',
    commands: ['upload', 'get (the preview)', 'confirm', 'void'],
  },
  'bill-imports': {
    about: 'Outstanding purchase bills from an export, against the clearing account',
    commands: ['upload', 'get (the preview)', 'confirm', 'void'],
  },
  migrations: {
    about: 'A move from Xero, FreeAgent or QuickBooks step by step (acct migrate runs it whole)',
    commands: ['create', 'attach (its files)', 'validate (the gates)', 'execute', 'abandon', 'history'],
  },
  bank: {
    about: 'The bank',
    commands: [
      'import (a statement)',
      'inbox (the uncategorised lines)',
      'categorise',
      "accept (the rules' suggestions)",
      'match',
      'explain (one line)',
      'recategorise',
      'reconcile',
    ],
  },
  'bank-accounts': {
    about: 'Bank accounts',
    commands: ['list', 'create', 'update (sort code, account number, IBAN, primary)', 'archive', 'unreconciled (lines)', 'reconcile'],
  },
  'bank-imports': { about: 'Bank statement imports step by step', commands: ['upload', 'get', 'remap', 'confirm', 'delete', 'undo'] },
  directors: {
    about: 'Directors, shareholders and connected persons of a limited company',
    commands: ['list', 'add', 'get', 'update', 'resign'],
  },
  dla: {
    about: "Directors' loan accounts",
    commands: ['add (a movement, with its journal)', 'list', 'balances', 'balance', 's455', 'snapshot', 'snapshots'],
  },
  company: { about: "A limited company's year-end pack (directors' loans with S455 and P11D, dividends, the profit check)", commands: ['year-end'] },
  dividends: {
    about: 'Dividends',
    commands: ['profit-check', 'minutes (board minutes)', 'declare (--dry-run)', 'pay', 'void', 'summary', 'voucher', 'tax (the tax calculator)'],
  },
  'categorisation-rules': {
    about: 'Categorisation rules',
    commands: ['list', 'create (upsert)', 'update', 'delete', 'reorder', 'test', 'categorise-row', 'global (the global rules)'],
  },
  registration: { about: 'Sign up over the API', commands: ['register (a user with a new organisation, provisioned as acct init does)'] },
  auth: {
    about: 'User sessions over the API (session commands need a session, so they answer only over HTTP)',
    commands: [
      'login (with TOTP)',
      'refresh',
      'logout',
      'me (the current user)',
      'password (change it)',
      'totp-setup',
      'totp-enable',
      'totp-verify',
      'totp-disable',
    ],
  },
  'email-verification': {
    about: 'Verify a user’s e-mail address by a token sent to it',
    commands: ['send (needs a session)', 'verify', 'status'],
  },
  'password-reset': { about: 'Reset a forgotten password by a token e-mailed to the address', commands: ['forgot', 'validate', 'reset'] },
  admin: {
    about: 'Platform administration as the local operator',
    commands: [
      'create-user (bootstraps a user or an administrator)',
      'orgs',
      'audit-log',
      'bug-reports',
      'settings',
      'stats',
      'search',
      'system-health',
      'failed-webhooks',
    ],
  },
  users: {
    about: 'Users of the platform, as an administrator',
    commands: ['list', 'get', 'suspend', 'unsuspend', 'unlock', 'disable-mfa (TOTP)', 'role', 'send-reset-link', 'impersonate', 'delete'],
  },
  vat: {
    about: 'VAT returns and Making Tax Digital',
    commands: [
      'periods',
      'show (a return, draft or filed)',
      'file',
      'returns (the filed ones)',
      'connect (to HMRC)',
      'obligations',
      'submit',
      'hmrc-return',
      'liabilities',
      'payments',
    ],
  },
  'bug-reports': { about: 'Bug reports to the operators', commands: ['submit (with the latest API requests if asked)', 'list', 'get'] },
  transparency: {
    about: 'The public record of reported bugs',
    commands: ['entries (titles, states, dates)', 'stats'],
  },
  'early-access': { about: 'Early access', commands: ['stats (spots left of 50, and the trial a new organisation gets)'] },
  billing: {
    about: 'Subscription billing through the card-payment provider, Stripe (checkout and portal need ACCT_STRIPE_KEY)',
    commands: ['plans', 'status (of the trial and subscription)', 'checkout (to subscribe)', 'portal (the billing portal)'],
  },
};

/** Each group's help line, as `acct GROUP --help`, `acct --help` and acct(1) show it. */
export const groupSummaries: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(groups).map(([name, g]) => [name, `${g.about}: ${g.commands.join(', ')}`]),
);

/** The one money rule of the command line, stated once in acct --help and near the top of acct(1). */
export const moneyRule =
  'Money: every amount flag and argument is in pounds (450, 450.00, 1,234.56 or £1,234.56; at most two decimals), ' +
  "and tables print pounds (1,234.56; --csv plain, 1234.56). JSON is the API's integer pence: --json output, --body " +
  'input and import journal files (45000 is £450.00).';

/** How the command line names things and dates, stated in acct --help and acct(1) beside the money rule. */
export const referenceRule =
  'Names: wherever a command takes an id it also takes what people know: an account code or name (1200, "Bank Account"), ' +
  'an invoice, quote, bill or credit-note number (INV-0001, QT-0001, CN-0001), a contact’s name or the start of it ' +
  '("Bob" for Bob Ltd; when two match, the error lists them), a director’s full name or the start of it, and --org an organisation’s name or the start of its id.';

export const dateRule =
  'Dates: YYYY-MM-DD, or on a date range a period: 2026-11, 2026-Q3, 2026, fy2025 (the financial year that begins in 2025), ' +
  'today, yesterday, this-month, last-month, this-quarter, last-quarter, this-year, last-year, this-fy, last-fy. ' +
  'A report given no dates covers the financial year to date. 31/03/2026 is refused with the hint 2026-03-31; 2026-02-30 is not a real date.';

export interface CommandDoc {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  readonly description: string;
  readonly examples: readonly string[];
}

export const handWritten = {
  init: {
    name: 'init',
    usage:
      'init [--name NAME --business-type TYPE --vat-scheme SCHEME [--flat-rate-percent N] [--fiscal-year-start MM-DD] ' +
      '[--vat-number N] [--company-number N] [--address-line1 TEXT] [--address-line2 TEXT] [--city TEXT] [--region TEXT] [--postal-code TEXT]] [--use] [--yes]',
    summary: 'Create an organisation with its chart of accounts, periods, trial and API keys',
    description:
      'Run in a terminal without flags, init asks its questions one by one, the VAT number only when registered for VAT ' +
      'and the company number only for a limited company, and asks again when an answer is refused. With flags it asks nothing. ' +
      "A VAT number must pass HMRC's check digits; a company number is 8 digits (a shorter one is padded with zeros) or " +
      '2 letters and 6 digits; a flat rate runs from 4 to 16.5. ' +
      'It creates the organisation (a UUID), provisions the UK chart of accounts in its live and test books, ' +
      'starts its trial (90 days while fewer than 50 organisations have a verified signup, else 30) and creates a ' +
      'live and a test API key with all scopes, shown this once, then lists next steps. Each run adds an organisation; ' +
      'the first becomes the one the CLI uses, a later one only with --use (else init says how to switch: see use). ' +
      'With --json it prints {organisationId, apiKey, testApiKey} and nothing else.',
    examples: [
      'acct init --name "Acme Ltd" --business-type limited_company --vat-scheme standard --yes',
      'acct init --name "Dales Pottery Ltd" --business-type limited_company --vat-scheme standard --vat-number "GB 980 7806 84" --company-number 01234567 --postal-code "BD23 1AA" --use --yes',
      'acct --data ~/books init --name "Jo Bloggs" --business-type sole_trader --vat-scheme flat_rate --flat-rate-percent 12.5 --fiscal-year-start 04-06 --yes --json',
    ],
  },
  serve: {
    name: 'serve',
    usage: 'serve [--host HOST] [--port PORT] [--body-limit BYTES]',
    summary: 'Serve the /v1 JSON API for every organisation of the data directory',
    description:
      'Prints one line with the URL once it accepts connections. The same routes answer under /v1 and /api/v1. ' +
      'SIGTERM or SIGINT stops it cleanly: no new connections, requests in flight finish. The CLI may use the same ' +
      'data directory while it runs. Behind one reverse proxy (nginx), --trust-proxy takes the client address the ' +
      'per-IP limits count from the last entry of X-Forwarded-For.',
    examples: ['acct serve --port 8080', 'acct --data /srv/acct serve --host 0.0.0.0 --port 3000', 'acct --data /srv/acct serve --port 3000 --trust-proxy'],
  },
  use: {
    name: 'use',
    usage: 'use [ORGANISATION]',
    summary: 'Choose the organisation that commands use when --org is not given; without one, list them',
    description:
      'Without --org, commands use the organisation chosen here, else the only one of the data directory. An organisation is named by its id, its name (ignoring case) or the start of either, as --org takes it; a name or start that fits several is refused with the list.',
    examples: ['acct use', 'acct use "Acme Ltd"', 'acct use 3f6c', 'acct use 3f6c1e0a-8d7b-4c3e-9a51-2b7d4e6f8a90'],
  },
  demo: {
    name: 'demo',
    usage: 'demo [--host HOST] [--port PORT]',
    summary: 'Serve a demo organisation (created on first run) and print the URL and a fresh API key',
    description:
      'What npm start runs. The demo organisation is created in the data directory on first run; each start ' +
      'issues a new demo key and revokes the previous one, since keys are stored only as hashes. PORT sets the ' +
      'default port (3000).',
    examples: ['npm start', 'PORT=8080 acct demo'],
  },
  post: {
    name: 'post',
    usage: 'post DATE DESCRIPTION CODE=AMOUNT[@RATE[inc|ex]]... [--draft] [--reference TEXT]',
    summary: 'Record a transaction by account codes, with amounts in pounds (positive debit, negative credit)',
    description:
      'A shortcut for transactions create: each CODE=AMOUNT is a line on the account with that code. Amounts are in ' +
      'pounds (120.00, -144, 1,200.50); inside, as everywhere in acct, they are whole pence. The lines must sum to exactly 0. ' +
      'CODE=AMOUNT@RATE marks a sale (a revenue account) or a purchase (an expense account, or an asset account other than ' +
      'the bank and other control accounts) with VAT at RATE, a whole percentage from 0 to 100: @RATE or @RATEex reads ' +
      'AMOUNT as the net and adds RATE% on top; @RATEinc reads it as the gross and takes the VAT out (to the nearest ' +
      'penny, halves up). The line is split into the net on CODE and the VAT on ' +
      '2201 VAT Input (purchases) or 2200 VAT Output (sales), the VAT lines after the lines typed, and both reach the VAT ' +
      'return (boxes 4 and 7, or 1 and 6); @0 is zero-rated, a net with no VAT line (box 6 or 7). Under the flat rate scheme ' +
      'a sale is split the same way, but a purchase is posted gross with its VAT inside the cost, as it is not reclaimed, ' +
      'unless it is a capital purchase (an asset account, £2,000 or more including VAT). A business not registered for ' +
      'VAT posts a purchase gross with no VAT facts (the VAT is part of the cost), and may not put VAT on a sale.',
    examples: [
      'acct post 2025-03-01 "Office chairs" 5100=144.00@20inc 1200=-144.00',
      'acct post 2025-03-02 "Printer paper" 5100=50.00@20 1200=-60.00',
      'acct post 2025-03-05 "Consulting" 1200=600.00 4000=-500.00@20',
      'acct post 2025-03-06 "Books" 5100=30.00@0 1200=-30.00',
      'acct post 2025-03-31 "Bank charges" 5800=5 1200=-5 --draft --reference MAR',
    ],
  },
  ledger: {
    name: 'ledger',
    usage: 'ledger ACCOUNT [--from DATE] [--to DATE] [--limit N] [--csv]',
    summary: "Print an account's ledger: posted lines in date order with a running balance, in pounds",
    description:
      'Balances are debit − credit, from the opening balance at --from to the closing balance at --to. The account is its code, name or id. ' +
      'The lines are read in one pass and printed as they are read, so a long ledger starts at once and pipes well; --json prints the API’s shape with every line.',
    examples: [
      'acct ledger 1200',
      'acct ledger "Bank Account" --from fy2025',
      'acct ledger 4000 --from 2026-Q3 --csv > sales-q3.csv',
      'acct --json ledger 1200 --from this-month',
    ],
  },
  bankImport: {
    name: 'bank import',
    usage: 'bank import FILE [--account CODE] [--duplicates skip|import] [--match] [--dry-run]',
    summary: 'Import a bank statement (CSV of any UK bank, OFX or QFX): a summary of created, duplicate and rejected rows',
    description:
      'Reads the statement (the layout is detected: a known bank, the date format, one signed amount or debit and credit ' +
      'columns), checks its running balance, and posts one transaction a row on the bank account: the other side on the ' +
      'account a categorisation rule gives, else on suspense (9999) until categorised. Rows an earlier import created (the same ' +
      'date, description and amount) are skipped unless --duplicates import; identical rows inside one file are kept. A statement ' +
      'whose balances do not reconcile is refused (balance_mismatch) and leaves nothing behind. With --match, a row that pays an ' +
      'open invoice or bill (due exactly its amount, named by number or contact) is recorded as its payment, and a row whose money ' +
      'is already in the books (a payment recorded by hand, the same amount within 14 days) is matched to that entry rather than ' +
      'posted again. Rows in the file = created + matched + skipped + rejected; each rejected row is named with its reason. A progress bar shows on a terminal. ' +
      'To remap columns, use the bank-imports commands (upload, remap, confirm).',
    examples: ['acct bank import ~/Downloads/starling.csv', 'acct bank import statement.ofx --account 1210', 'acct bank import march.csv --match --dry-run'],
  },
  bankCategorise: {
    name: 'bank categorise',
    usage: 'bank categorise TXN ACCOUNT [--vat-rate N --vat-treatment inclusive]',
    summary: 'Move a bank line off suspense (9999) to the account it belongs to, with its VAT',
    description:
      'ACCOUNT is a code (5100), a name ("Bank Charges", or the start of only one name) or an id. With --vat-rate 20 --vat-treatment inclusive the amount holds the VAT, which then reaches the VAT return.',
    examples: ['acct bank categorise txn_01hx… 5100 --vat-rate 20 --vat-treatment inclusive', 'acct bank categorise txn_01hx… "Bank Charges"'],
  },
  bankAccept: {
    name: 'bank accept',
    usage: 'bank accept [--min-confidence N] [--dry-run]',
    summary: 'Categorise every suspense line the rules are at least this sure of (0.8 by default)',
    description:
      'Confidence is 0 to 1, from the winning rule: its provenance (your rules, then seed, then global), how exact its match and how much of the line it covers.',
    examples: ['acct bank accept', 'acct bank accept --min-confidence 0.6 --dry-run'],
  },
  bankRecategorise: {
    name: 'bank recategorise',
    usage: 'bank recategorise [--dry-run]',
    summary: 'After a rule change, categorise the suspense lines the rules now know (--dry-run shows what would change)',
    description: 'Every line still on suspense is decided again by the rules as they are now; lines already categorised stay as they are.',
    examples: ['acct bank recategorise --dry-run', 'acct bank recategorise'],
  },
  bankMatch: {
    name: 'bank match',
    usage: 'bank match TXN [--invoice NUMBER… | --bill NUMBER… | --entry TXN] | bank match --all [--dry-run]',
    summary: 'Match a bank line on suspense to the invoice or bill it pays, or to the entry already holding its money',
    description:
      'An invoice or bill gets a payment of the line’s amount on the line’s date through its bank account, and the line’s own ' +
      'entry goes; an entry (a payment recorded by hand) must move the same money through the same bank account, and the line ' +
      'goes as its duplicate. A statement’s line paying several invoices or bills names each (--invoice INV-1042 --invoice INV-1043, ' +
      'or INV-1042,INV-1043): in that order each is paid what is due until the money runs out, the last perhaps in part. ' +
      'With no target the line’s suggestion is taken (acct bank inbox shows them); --all takes every suggestion.',
    examples: [
      'acct bank match txn_01hx… --invoice INV-1042',
      'acct bank match txn_01hx… --invoice INV-1042,INV-1043',
      'acct bank match txn_01hx… --bill RENT-03',
      'acct bank match --all --dry-run',
    ],
  },
  bankExplain: {
    name: 'bank explain',
    usage: 'bank explain TXN',
    summary: 'Why the rules suggest an account for a bank line: the rule, the match and the score',
    description: 'The score compares rules left to right: provenance, operator, field, pattern length, fit, priority, then age.',
    examples: ['acct bank explain txn_01hx…'],
  },
  bankReconcile: {
    name: 'bank reconcile',
    usage: 'bank reconcile ACCOUNT --statement-balance POUNDS --as-of DATE [--exclude TXN,…]…',
    summary: 'Reconcile a bank account to a statement: list its unreconciled lines, mark them, refuse if the balance differs',
    description:
      'Lists the posted lines up to --as-of not yet reconciled, then marks them all (less --exclude) reconciled, only if the ' +
      "reconciled balance then equals the statement's; otherwise nothing is marked and the difference is named (balance_mismatch).",
    examples: ['acct bank reconcile 1200 --statement-balance 3,750.64 --as-of 2024-03-31'],
  },
  adminCreateUser: {
    name: 'admin create-user',
    usage: 'admin create-user --email EMAIL --password PASSWORD [--full-name NAME] [--admin]',
    summary: 'Create a user of the organisation, who can then log in to the API (POST /v1/auth/login); --admin makes an administrator',
    description:
      'The bootstrap of the first administrator, and of users of organisations made with acct init. The organisation is --org, else the one chosen with acct use, else the only one. The password (at least 8 characters) is hashed with scrypt; the full name defaults to the part of the address before the @. An address already registered is refused (exit 4).',
    examples: [
      'acct admin create-user --email jo@example.com --password "a long passphrase" --admin',
      'acct --org "Acme Ltd" admin create-user --email sam@acme.test --password "another passphrase" --full-name "Sam Smith"',
    ],
  },
  migrate: {
    name: 'migrate',
    usage:
      'migrate --from PROVIDER --balances FILE [--contacts FILE] [--invoices FILE] [--bills FILE] --cutover DATE [--dry-run] [--expect-trial-balance FILE] [--map LABEL=CODE]…',
    summary: 'Move the books from Xero, FreeAgent, QuickBooks or other software: contacts, opening balances, outstanding invoices and bills',
    description:
      "PROVIDER is xero, freeagent, quickbooks or other; the files are that product's CSV exports as they come (title lines, YTD " +
      'columns, £ amounts and code prefixes are read). The trial balance at the cutover (a month end) becomes one opening ' +
      'balance journal; with invoices or bills its Trade Debtors and Trade Creditors go to 1198 and 2198, and each outstanding ' +
      'document then moves its balance to 1100 or 2100, so the clearing accounts end at zero. Contacts match existing ones by ' +
      'VAT number, company number, company e-mail domain or an identical name; documents match contacts by name (85% similar ' +
      'or more), else new contacts are made. The proof is printed: the gates, what each file made, and the books against the ' +
      'source trial balance account by account. Everything is one transaction, committed only when every gate passes (and ' +
      'the books equal --expect-trial-balance, if given, to the penny); otherwise nothing is written and the exit status is 5. ' +
      '--dry-run prints the same proof and writes nothing. --map maps a trial balance row the automatic tiers cannot place. ' +
      'A progress bar shows on a terminal.',
    examples: [
      'acct migrate --from xero --contacts contacts.csv --balances tb.csv --invoices open-invoices.csv --bills open-bills.csv --cutover 2025-03-31 --dry-run',
      'acct migrate --from freeagent --balances tb.csv --cutover 2025-03-31 --expect-trial-balance tb.csv --map "Tools and Consumables=5000"',
    ],
  },
  companyYearEnd: {
    name: 'company year-end',
    usage: 'company year-end --year YEAR [--pdf FILE] [--json-file FILE] [--force]',
    summary: "The year-end pack: directors' loans with S455 and P11D figures, dividends declared and paid, the profit check",
    description:
      'YEAR is the calendar year the financial year ends in. Prints the pack; --pdf and --json-file also write it, only where ' +
      'you say and never over an existing file without --force. The figures are as the books stand when it is run.',
    examples: ['acct company year-end --year 2025', 'acct company year-end --year 2025 --pdf pack-2025.pdf --json-file pack-2025.json'],
  },
  importJournal: {
    name: 'import journal',
    usage: 'import journal FILE.jsonl [--allow-duplicate]',
    summary: 'Load a journal of transactions, one JSON object a line, all or nothing, as one batch',
    description:
      'Each line is {"date", "description", "reference"?, "status"? ("posted" by default), "lines": [{"accountCode", ' +
      '"amount" (pence, positive debit), "description"?, "vatRate"?, "vatTreatment"?}]}. Every entry goes through the ' +
      'same rules as any posting; if any line is refused, each refusal is listed with its line number and nothing is ' +
      'imported. - reads standard input. Each import is recorded as a batch (its dimp_ id): the file name, a SHA-256 of ' +
      'the content, the transaction and line counts, the total debit, the first and last date, and who imported it when. ' +
      'Its transactions carry sourceType import and the batch id as sourceId; afterwards they are journals like those made ' +
      'by hand, changed and deleted under the same rules. Content already imported (CRLF or LF endings and blank lines ' +
      'aside) is refused with duplicate_import (exit 4), naming the earlier batch, unless that batch was undone or ' +
      '--allow-duplicate is given. import list shows the batches, newest first; import undo BATCH removes every ' +
      'transaction of a batch, unless one is reconciled or dated in a closed period, and marks it undone.',
    examples: [
      'acct import journal history.jsonl',
      'zcat 2019-2025.jsonl.gz | acct import journal -',
      'acct import list',
      'acct import undo dimp_01kaz3v0xk7q2m9d4c8f6h1j5n',
      'acct import journal history.jsonl --allow-duplicate',
    ],
  },
  export: {
    name: 'export',
    usage: 'export [--format hledger|beancount] [--from DATE] [--to DATE]',
    summary: 'Write the posted ledger as a journal that hledger (and ledger) or beancount read',
    description:
      'Account names carry their type and code (expenses:5100 Office Expenses for hledger, ' +
      'Expenses:5100-Office-Expenses for beancount); amounts are pounds. With --from, an Opening balances entry on that ' +
      'date carries the asset, liability and equity balances before it and closes earlier income and expenses into ' +
      "3100 Retained Earnings, so the income statement of the export is acct's profit and loss for --from to --to, and " +
      "its balance sheet is acct's on any date in that window; exported from the first day of a financial year, its " +
      "balances on a day of that year are acct's trial balance (which carries the earlier years' income and expenses in 3100).",
    examples: [
      'acct export > books.journal && hledger -f books.journal bs',
      'acct export --format beancount > books.beancount && bean-check books.beancount',
      'acct export --from 2025-04-01 --to 2026-03-31 > fy2025.journal',
    ],
  },
  migrateStore: {
    name: 'migrate-store',
    usage: 'migrate-store --from sqlite:DIR --to postgres://USER@HOST:PORT/DB[?schema=acct]',
    summary: 'Copy every organisation from a data directory’s SQLite files into PostgreSQL, and prove the copy',
    description:
      'Copies the platform and each organisation’s live and test books into their PostgreSQL schemas (created; the ' +
      'database must hold no organisation yet), then proves each set of books: every table’s row count on both sides, and ' +
      'the trial balance read from each store, to the penny. Prints one line per set of books; exits 5 (balance_mismatch) ' +
      'if any differs. The data directory’s secret.key opens the sealed secrets on either store: serve the copy with ' +
      'acct --data DIR --database URL serve. See acct-scaling(7).',
    examples: ["acct migrate-store --from sqlite:./acct-data --to 'postgres://acct@db.internal:5432/acct'"],
  },
  webhooksVerify: {
    name: 'webhooks verify',
    usage: 'webhooks verify --secret WHSEC --timestamp SECONDS --signature HEX [--payload FILE] [--tolerance SECONDS]',
    summary: "Check a received webhook delivery's signature and timestamp, as a receiver should",
    description:
      'Recomputes HMAC-SHA256 over "<timestamp>.<raw body>" keyed with the whole secret (whsec_ included), compares it ' +
      'with the X-Service-Signature header in constant time, and checks the timestamp is within --tolerance seconds (300 ' +
      'by default) of now. Prints valid or invalid with the reason; exits 0 when valid, 1 when not. See acct-webhooks(7).',
    examples: ['acct webhooks verify --secret "$SECRET" --timestamp 1795000000 --signature 5f0c… --payload body.json'],
  },
  vatConnect: {
    name: 'vat connect',
    usage: 'vat connect [--port PORT] [--timeout SECONDS]',
    summary: 'Connect the books to HMRC for Making Tax Digital: sign in to HMRC in a browser and grant acct access',
    description:
      'Needs the client id and secret of your application on HMRC’s Developer Hub in ACCT_HMRC_CLIENT_ID and ' +
      'ACCT_HMRC_CLIENT_SECRET, with http://127.0.0.1:PORT/callback among its redirect URIs. acct listens on that ' +
      'loopback address (a free port unless --port is given), prints the HMRC address to open on standard error, and ' +
      'waits for the browser to come back with the authorisation code; it checks the state it sent, exchanges the code ' +
      'for tokens (scopes read:vat and write:vat) and keeps them in the books. The access token lasts 4 hours and is ' +
      'refreshed as needed; after 18 months HMRC asks you to grant access again. --hmrc-base-url (default HMRC’s ' +
      'sandbox) chooses the HMRC environment; tokens of one are not used with another.',
    examples: [
      'ACCT_HMRC_CLIENT_ID=… ACCT_HMRC_CLIENT_SECRET=… acct vat connect',
      'acct --hmrc-base-url https://api.service.hmrc.gov.uk vat connect --port 8765',
    ],
  },
  completion: {
    name: 'completion',
    usage: 'completion bash|zsh|fish',
    summary: 'Print a shell completion script: commands, their flags, and the values of flags that take one of a list',
    description:
      'Made from the same registry as the commands, so it completes every group, action and flag of this version ' +
      '(old flag names that still work are left out). Load it in the shell’s start-up file, or save it where the ' +
      'shell looks for completions.',
    examples: [
      'source <(acct completion bash)          # in ~/.bashrc',
      'acct completion zsh > "${fpath[1]}/_acct"   # or source <(acct completion zsh) after compinit',
      'acct completion fish > ~/.config/fish/completions/acct.fish',
    ],
  },
  openapi: {
    name: 'openapi',
    usage: 'openapi',
    summary: 'Print the OpenAPI 3.1 document of the HTTP API',
    description: 'Generated from the same operation registry as the routes and these commands.',
    examples: ['acct openapi > openapi.json'],
  },
} as const satisfies Record<string, CommandDoc>;

export function examplesText(doc: CommandDoc): string {
  return `\nExamples:\n${doc.examples.map((e) => `  $ ${e}`).join('\n')}\n`;
}
