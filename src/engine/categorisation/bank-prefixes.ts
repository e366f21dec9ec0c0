/**
 * Words UK banks put before the payee in a statement line: transaction type
 * codes (Lloyds, Halifax and HSBC print DD, SO, BGC, FPI…; HSBC marks
 * contactless with ")))") and the phrases of Starling, Monzo, NatWest and
 * Barclays exports. They say how money moved, not who to, so they are
 * stripped before matching. Upper case, single spaces.
 *
 * Left out on purpose: "BP" (Lloyds' bill payment code, but also the fuel
 * company), and CHG, FEE and INT, which are what identify a bank charge or
 * interest line.
 */
export const bankPrefixes: readonly string[] = [
  'DIRECT DEBIT PAYMENT TO',
  'FASTER PAYMENT RECEIVED FROM',
  'FASTER PAYMENTS RECEIPT FROM',
  'FASTER PAYMENT TO',
  'FASTER PAYMENT FROM',
  'CARD PAYMENT TO',
  'CARD PAYMENT AT',
  'CARD PURCHASE AT',
  'CONTACTLESS PAYMENT TO',
  'CONTACTLESS PAYMENT AT',
  'CONTACTLESS PAYMENT',
  'STANDING ORDER TO',
  'STANDING ORDER FROM',
  'STANDING ORDER',
  'BILL PAYMENT TO',
  'BILL PAYMENT FROM',
  'BILL PAYMENT',
  'DIRECT DEBIT TO',
  'DIRECT DEBIT',
  'BANK GIRO CREDIT',
  'BANK TRANSFER TO',
  'BANK TRANSFER FROM',
  'TRANSFER TO',
  'TRANSFER FROM',
  'PAYMENT TO',
  'PAYMENT FROM',
  'CARD PAYMENT',
  'CARD PURCHASE',
  'CONTACTLESS',
  'DEBIT CARD',
  'DD',
  'SO',
  'BGC',
  'FPI',
  'FPO',
  'POS',
  'VIS',
  'VISA',
  'CHQ',
  'TFR',
  'DEB',
  'CPT',
  'OBP',
  'MPI',
  'MPO',
  ')))',
];
