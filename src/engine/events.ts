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
  await emitAll(trx, clock, [event], data);
}

/** Several events of one thing (transaction.created and transaction.posted) in one insert, in the order given. */
export async function emitAll(trx: Kysely<OrgDb>, clock: Clock, events: readonly EventKind[], data: unknown): Promise<void> {
  const payload = JSON.stringify(data);
  const createdAt = timestamp(clock);
  await trx
    .insertInto('outbox')
    .values(events.map((event) => ({ id: newId('evt', clock.now()), event, payload, created_at: createdAt })))
    .execute();
}
