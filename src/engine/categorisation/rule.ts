/**
 * A categorisation rule and the bank line it is matched against: the shapes
 * the scorer works on, free of any storage.
 */

export const ruleFields = [
  'description',
  'contact_name',
  'amount',
  'reference',
  'metadata.category',
  'metadata.project',
  'metadata.department',
  'metadata.tag',
] as const;
export type RuleField = (typeof ruleFields)[number];

export const ruleOperators = ['contains', 'equals', 'starts_with', 'ends_with', 'greater_than', 'less_than', 'regex'] as const;
export type RuleOperator = (typeof ruleOperators)[number];

/** Who made the rule: the organisation (local), set-up seeds (verified) or the shared set (global). */
export const provenances = ['local', 'verified', 'global'] as const;
export type Provenance = (typeof provenances)[number];

export interface Rule {
  readonly id: number;
  readonly name: string;
  readonly field: RuleField;
  readonly operator: RuleOperator;
  /** Normalised as validateRule returns it; an amount rule's value is whole pence ("-4500"). */
  readonly value: string;
  readonly targetAccountId: string;
  /** 0–999; only breaks ties that the earlier score dimensions leave. */
  readonly priority: number;
  readonly active: boolean;
  readonly provenance: Provenance;
  /** ISO 8601 UTC timestamp; the earlier rule wins a full tie. */
  readonly createdAt: string;
}

/**
 * One bank line as the scorer sees it. `amount` is the line's signed amount
 * in pence as the bank shows it: positive money in, negative money out.
 */
export interface BankLineInput {
  readonly description?: string | undefined;
  readonly reference?: string | undefined;
  readonly contactName?: string | undefined;
  readonly amount?: number | undefined;
  readonly metadata?: Readonly<Record<string, string>> | undefined;
}

/** The metadata key a `metadata.*` field reads, or undefined for the other fields. */
export function metadataKey(field: RuleField): string | undefined {
  return field.startsWith('metadata.') ? field.slice('metadata.'.length) : undefined;
}
