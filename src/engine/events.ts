/**
 * Events: every state change writes its event to the outbox in the same
 * database transaction as the change; the webhook sender reads the outbox.
 */
import type { Kysely } from 'kysely';
import { newId } from './ids.js';
import { timestamp, type Clock } from './clock.js';
import type { OrgDb } from '../store/tables.js';

export const eventKinds = [
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'invoice.overdue',
  'invoice.cancelled',
  'quote.created',
  'quote.accepted',
  'quote.rejected',
  'contact.created',
  'contact.updated',
  'transaction.created',
  'transaction.posted',
  'payment.received',
  'vat.submitted',
  // Beyond the spec's list (receivers ignore kinds they do not know): corrections.
  'payment.removed',
  'credit_note.created',
  'credit_note.voided',
] as const;

export type EventKind = (typeof eventKinds)[number];

export async function emit(trx: Kysely<OrgDb>, clock: Clock, event: EventKind, data: unknown): Promise<void> {
  await trx
    .insertInto('outbox')
    .values({ id: newId('evt', clock.now()), event, payload: JSON.stringify(data), created_at: timestamp(clock) })
    .execute();
}
