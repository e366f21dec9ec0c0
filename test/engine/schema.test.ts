import t from 'tap';
import { z } from 'zod';
import { AppError } from '../../src/engine/errors.js';
import { idOf, isoDate, parseWith, pence } from '../../src/engine/schema.js';

const schema = z.strictObject({
  name: z.string().min(1).max(5),
  count: z.number().int().min(1),
  date: isoDate().optional(),
  id: idOf('acc').optional(),
  kind: z.enum(['a', 'b']).optional(),
  lines: z.array(z.strictObject({ amount: z.number().int() })).optional(),
});

function failure(input: unknown): { code: string; field: string | undefined; message: string } {
  try {
    parseWith(schema, input);
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, field: e.field, message: e.message };
    throw e;
  }
  throw new Error('expected a failure');
}

t.test('a missing or null required field is validation_error naming it', async (t) => {
  t.same(failure({ count: 1 }), { code: 'validation_error', field: 'name', message: 'name is required' });
  t.same(failure({ name: null, count: 1 }), { code: 'validation_error', field: 'name', message: 'name is required' });
});

t.test('an empty or too long string is validation_error', async (t) => {
  t.same(failure({ name: '', count: 1 }), { code: 'validation_error', field: 'name', message: 'name must not be empty' });
  t.same(failure({ name: 'abcdef', count: 1 }), { code: 'validation_error', field: 'name', message: 'name must be at most 5 characters' });
});

t.test('a value of the wrong JSON type is invalid_type', async (t) => {
  t.same(failure({ name: 'a', count: '3' }), { code: 'invalid_type', field: 'count', message: 'count must be a number, not string' });
  t.same(failure({ name: 7, count: 1 }), { code: 'invalid_type', field: 'name', message: 'name must be a string, not number' });
});

t.test('a number that is not an integer, or out of range, is validation_error', async (t) => {
  t.same(failure({ name: 'a', count: 1.5 }), { code: 'validation_error', field: 'count', message: 'count must be an integer' });
  t.same(failure({ name: 'a', count: 0 }), { code: 'validation_error', field: 'count', message: 'count must be at least 1' });
});

t.test('dates must be real YYYY-MM-DD dates: invalid_date', async (t) => {
  for (const date of ['2026-02-30', '2026-1-01', '21/11/2026', '2025-02-29']) {
    t.equal(failure({ name: 'a', count: 1, date }).code, 'invalid_date', date);
  }
  t.same(parseWith(schema, { name: 'a', count: 1, date: '2024-02-29' }).date, '2024-02-29');
});

t.test('ids must carry their prefix: invalid_id', async (t) => {
  t.same(failure({ name: 'a', count: 1, id: 'inv_123' }), {
    code: 'invalid_id',
    field: 'id',
    message: 'id must be an id starting acc_',
  });
});

t.test('enums list their values; nested fields are named with their index', async (t) => {
  t.same(failure({ name: 'a', count: 1, kind: 'c' }), { code: 'validation_error', field: 'kind', message: 'kind must be one of a, b' });
  t.same(failure({ name: 'a', count: 1, lines: [{ amount: 1 }, { amount: 'x' }] }), {
    code: 'invalid_type',
    field: 'lines[1].amount',
    message: 'lines[1].amount must be a number, not string',
  });
});

t.test('an unknown field is refused by name', async (t) => {
  t.same(failure({ name: 'a', count: 1, colour: 'red' }), {
    code: 'validation_error',
    field: 'colour',
    message: 'colour is not a field of this request',
  });
});

t.test('field appears in the envelope only on validation errors (400)', async (t) => {
  t.same(new AppError('validation_error', 'x is required', 'x').toJSON(), { code: 'validation_error', message: 'x is required', field: 'x' });
  t.same(new AppError('unprocessable_entity', 'period closed', 'date').toJSON(), { code: 'unprocessable_entity', message: 'period closed' });
  t.same(new AppError('not_found', 'no such thing', 'id').toJSON(), { code: 'not_found', message: 'no such thing' });
});

t.test('a format check keeps the message written with it', async (t) => {
  const currency = z.strictObject({ currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as GBP'), code: z.string().regex(/^\d+$/) });
  t.throws(() => parseWith(currency, { currency: 'gbp', code: '1' }), {
    code: 'validation_error',
    field: 'currency',
    message: 'currency must be an ISO 4217 code such as GBP',
  });
  t.throws(() => parseWith(currency, { currency: 'GBP', code: 'x' }), { code: 'validation_error', field: 'code', message: 'code has an invalid format' });
});

t.test('the bounds of a money field are stated in pounds; the value stays pence', async (t) => {
  const money = z.strictObject({ amount: pence().positive(), price: pence().min(-100_000).max(1_000_000).optional() });
  t.same(parseWith(money, { amount: 45000 }), { amount: 45000 }, 'pence in, pence out');
  t.throws(() => parseWith(money, { amount: 0 }), { code: 'validation_error', field: 'amount', message: 'amount must be more than £0.00' });
  // 1,000,000p = £10,000.00; -100,000p = -£1,000.00
  t.throws(() => parseWith(money, { amount: 1, price: 1_000_001 }), { code: 'validation_error', field: 'price', message: 'price must be at most £10,000.00' });
  t.throws(() => parseWith(money, { amount: 1, price: -100_001 }), { code: 'validation_error', field: 'price', message: 'price must be at least -£1,000.00' });
  t.throws(() => parseWith(money, { amount: 4.5 }), { code: 'validation_error', field: 'amount', message: 'amount must be an integer' });
});
