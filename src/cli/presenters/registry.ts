/** Every presenter, found by the operation it shows. */
import type { Operation } from '../../engine/operation.js';
import type { Presenter } from './index.js';
import { ledgerPresenters } from './ledger.js';
import { reportPresenters } from './reports.js';
import { salesPresenters } from './sales.js';
import { vatPresenters } from './vat.js';
import { bankingPresenters } from './banking.js';

const byOperation = new Map<string, Presenter>(
  [...reportPresenters, ...salesPresenters, ...ledgerPresenters, ...vatPresenters, ...bankingPresenters].map((p) => [p.operation, p]),
);

export const presenterOf = (op: Operation): Presenter | undefined => byOperation.get(op.name);
