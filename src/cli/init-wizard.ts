/**
 * The questions `acct init` asks in a terminal. Each answer is checked
 * as it is given, by the schema that checks the flags and the API, so a
 * mistyped VAT number is asked again rather than refused at the end.
 */
import { z } from 'zod';
import { AppError } from '../engine/errors.js';
import { isMonthDay } from '../engine/dates.js';
import { parseWith } from '../engine/schema.js';
import { defaultFiscalYearStart, newOrganisationSchema, type NewOrganisation } from '../engine/organisation/provision.js';

/** The prompts the wizard uses: @inquirer/prompts in a terminal, canned answers in tests. */
export interface Prompts {
  input(config: { message: string; default?: string; validate?: (v: string) => boolean | string }): Promise<string>;
  select<T extends string>(config: { message: string; choices: { name: string; value: T }[]; default?: T }): Promise<T>;
  confirm(config: { message: string; default?: boolean }): Promise<boolean>;
}

type Field = keyof typeof newOrganisationSchema.shape;

/**
 * Check one answer with the schema's own field: true, or the problem
 * after `label` ("The VAT number fails HMRC's check digits …"). An empty
 * answer to an optional question is no answer.
 */
function check(field: Field, label: string, optional: boolean, toValue: (v: string) => unknown = (v) => v.trim()) {
  return (v: string): boolean | string => {
    if (optional && v.trim() === '') return true;
    try {
      parseWith(z.object({ [field]: newOrganisationSchema.shape[field] }), { [field]: toValue(v) });
      return true;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return `${label} ${e.message.startsWith(field) ? e.message.slice(field.length).trim() : e.message}`;
    }
  };
}

/** Ask one optional question; its answer, or undefined when left empty. */
async function optional(prompts: Prompts, field: Field, message: string, label: string): Promise<string | undefined> {
  const answer = (await prompts.input({ message: `${message} (optional)`, validate: check(field, label, true) })).trim();
  return answer === '' ? undefined : answer;
}

/** Ask for each answer in turn; returns null when the user declines at the end. */
export async function initWizard(prompts: Prompts): Promise<NewOrganisation | null> {
  const name = await prompts.input({
    message: 'Business name',
    validate: (v) => (v.trim() === '' ? 'Enter the name of the business' : check('name', 'The name', false)(v)),
  });
  const businessType = await prompts.select({
    message: 'Business type',
    choices: [
      { name: 'Limited company', value: 'limited_company' as const },
      { name: 'Sole trader', value: 'sole_trader' as const },
    ],
  });
  const vatScheme = await prompts.select({
    message: 'VAT',
    choices: [
      { name: 'Not VAT registered', value: 'not_registered' as const },
      { name: 'Standard VAT accounting', value: 'standard' as const },
      { name: 'Flat Rate Scheme', value: 'flat_rate' as const },
    ],
  });
  const answers: Record<string, unknown> = { name, businessType, vatScheme };
  if (vatScheme === 'flat_rate') {
    const percent = (v: string): unknown => (/^\d{1,3}(\.\d+)?$/.test(v.trim()) ? Number(v) : v);
    const answer = await prompts.input({
      message: 'Flat rate percentage for your trade (for example 12.5)',
      validate: (v) => (typeof percent(v) === 'number' ? check('vatFlatRatePercent', 'The flat rate', false, percent)(v) : 'A percentage such as 12.5'),
    });
    answers['vatFlatRatePercent'] = Number(answer);
  }
  if (vatScheme !== 'not_registered') {
    answers['vatNumber'] = await optional(prompts, 'vatNumber', 'VAT registration number, such as GB 980 7806 84', 'The VAT number');
  }
  if (businessType === 'limited_company') {
    answers['companyNumber'] = await optional(
      prompts,
      'companyNumber',
      'Company number at Companies House, such as 01234567 or SC123456',
      'The company number',
    );
  }
  answers['addressLine1'] = await optional(prompts, 'addressLine1', 'Address line 1', 'Address line 1');
  if (answers['addressLine1'] !== undefined) answers['addressLine2'] = await optional(prompts, 'addressLine2', 'Address line 2', 'Address line 2');
  answers['city'] = await optional(prompts, 'city', 'Town or city', 'The town or city');
  answers['postalCode'] = await optional(prompts, 'postalCode', 'Postcode', 'The postcode');
  answers['fiscalYearStart'] = await prompts.input({
    message: 'First day of the financial year (MM-DD)',
    default: defaultFiscalYearStart[businessType],
    validate: (v) => (isMonthDay(v) ? true : 'A month and day such as 04-06'),
  });
  const input = parseWith(newOrganisationSchema, Object.fromEntries(Object.entries(answers).filter(([, v]) => v !== undefined)));
  return (await prompts.confirm({ message: `Create ${input.name}?`, default: true })) ? input : null;
}
