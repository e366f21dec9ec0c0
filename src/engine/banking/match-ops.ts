/** Matching a bank line waiting on suspense to the invoice or bill it pays, or to the entry already holding its money (bank-matches.ts). */
import { defineOperation, orgOf } from '../operation.js';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { idOf } from '../schema.js';
import { postingOf } from '../ledger/posting.js';
import { matchBankEntry, matchedEntrySchema, maxDocuments } from './bank-matches.js';

const targets = ['invoiceId', 'invoiceIds', 'billId', 'billIds', 'transactionId'] as const;

export const matchBankLineOp = defineOperation({
  name: 'transactions.match',
  summary: 'Match a bank line on suspense to the invoice or bill it pays, or to the entry already in the books for the same money',
  description:
    'Name one of invoiceId (money in), billId (money out) or transactionId. An invoice or bill gets a payment of the line’s amount on its date through its bank account ' +
    '(never more than is due: 422), and the line’s own entry goes. invoiceIds or billIds name several a statement’s line pays in one: in the order named, each is paid ' +
    'what is due on it until the line’s money runs out (the last may be paid in part; 422 when the line is more than they are due, or is spent before one), all in one entry. ' +
    'An entry (a payment recorded by hand, say) must move the same money through the same bank account, ' +
    'and the line’s entry goes as a duplicate of it. The statement row then points at the payment or entry, and a reconciled line stays reconciled. ' +
    '422 when the line is categorised already, or is dated in a closed period, or is on no statement and names several documents; 409 when the entry is on a statement already.',
  access: 'transactions:write',
  method: 'POST',
  path: '/transactions/{id}/match',
  params: { id: idOf('txn') },
  body: {
    invoiceId: idOf('inv').optional().describe('the invoice the money in pays'),
    invoiceIds: z
      .array(idOf('inv'))
      .min(1)
      .max(maxDocuments)
      .optional()
      .describe('several invoices the money in pays, in order: each paid in full until the money runs out'),
    billId: idOf('bill').optional().describe('the bill the money out pays'),
    billIds: z
      .array(idOf('bill'))
      .min(1)
      .max(maxDocuments)
      .optional()
      .describe('several bills the money out pays, in order: each paid in full until the money runs out'),
    transactionId: idOf('txn').optional().describe('the entry already in the books for this money'),
  },
  output: matchedEntrySchema,
  async run(ctx, input) {
    const named = targets.filter((f) => input[f] !== undefined);
    if (named.length !== 1) {
      const field = named[1] ?? 'invoiceId';
      throw new AppError(
        'validation_error',
        `${field}: name one of invoiceId, invoiceIds, billId, billIds or transactionId${named.length > 1 ? `, not ${named.join(' and ')}` : ''}`,
        field,
      );
    }
    const field = named[0]!;
    return { data: await orgOf(ctx).write((trx) => matchBankEntry(trx, postingOf(ctx), input.id, input[field]!, field)) };
  },
});
