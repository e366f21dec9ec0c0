/**
 * A profile field whose text is checked and stored in one canonical form
 * (a VAT number, a company number): an empty string or null clears it, and
 * a value that fails its check is a validation error naming the field.
 */
import { z } from 'zod';

export type Checked = { readonly value: string } | { readonly problem: string };

export const checkedField = (check: (text: string) => Checked, description: string) =>
  z
    .string()
    .max(20)
    .nullable()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === null || v.trim() === '') return v === undefined ? undefined : null;
      const checked = check(v);
      if ('value' in checked) return checked.value;
      ctx.issues.push({ code: 'custom', message: checked.problem, input: v });
      return z.NEVER;
    })
    .describe(description);
