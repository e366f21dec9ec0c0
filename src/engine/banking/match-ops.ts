/** Matching a bank line waiting on suspense to the invoice or bill it pays, or to the entry already holding its money (bank-matches.ts). */
import { defineOperation, orgOf } from '../operation.js';
import { AppError } from '../errors.js';
import { idOf } from '../schema.js';
import { postingOf } from '../ledger/posting.js';
import { matchBankEntry, matchedEntrySchema } from './bank-matches.js';

const targets = ['invoiceId', 'billId', 'transactionId'] as const;

export const matchBankLineOp = defineOperation({
  name: 'transactions.match',
  summary: 'Match a bank line on suspense to the invoice or bill it pays, or to the entry already in the books for the same money',
  description:
    'Name one of invoiceId (money in), billId (money out) or transactionId. An invoice or bill gets a payment of the line’s amount on its date through its bank account ' +
    '(never more than is due: 422), and the line’s own entry goes; an entry (a payment recorded by hand, say) must move the same money through the same bank account, ' +
    'and the line’s entry goes as a duplicate of it. The statement row then points at the payment or entry, and a reconciled line stays reconciled. ' +
    '422 when the line is categorised already, or is dated in a closed period; 409 when the entry is on a statement already.',
  access: 'transactions:write',
  method: 'POST',
  path: '/transactions/{id}/match',
  params: { id: idOf('txn') },
  body: {
    invoiceId: idOf('inv').optional().describe('the invoice the money in pays'),
    billId: idOf('bill').optional().describe('the bill the money out pays'),
    transactionId: idOf('txn').optional().describe('the entry already in the books for this money'),
  },
  output: matchedEntrySchema,
  async run(ctx, input) {
    const named = targets.filter((f) => input[f] !== undefined);
    if (named.length !== 1) {
      const field = named[1] ?? 'invoiceId';
      throw new AppError(
        'validation_error',
        `${field}: name one of invoiceId, billId or transactionId${named.length > 1 ? `, not ${named.join(' and ')}` : ''}`,
        field,
      );
    }
    const field = named[0]!;
    return { data: await orgOf(ctx).write((trx) => matchBankEntry(trx, postingOf(ctx), input.id, input[field]!, field)) };
  },
});
