/**
 * What a dividend voucher and a board minute show, gathered by the engine
 * (src/engine/company). The renderers (voucher.ts, minutes.ts) print these
 * and work out only what follows from them: the dividend per share, the tax
 * year, the voucher's verification hash.
 */

/** The company, as its business documents must name it (Companies Act 2006 s82). */
export interface PdfCompany {
  readonly name: string;
  /** The registered number; null when the organisation has not recorded one (the line is left out). */
  readonly companyNumber: string | null;
  /** The registered office, one line each (format.ts addressLines turns an organisation row into these). */
  readonly address: readonly string[];
}

/** The board resolution that declared a dividend. */
export interface PdfResolution {
  /** The board minutes' resolution reference. */
  readonly reference: string;
  /** The date of the meeting whose minutes record it, YYYY-MM-DD. */
  readonly minutesDate: string;
}

export type VoucherStatus = 'declared' | 'paid' | 'void';

export interface VoucherData {
  readonly company: PdfCompany;
  /** DIV-0001 … */
  readonly voucherNumber: string;
  readonly status: VoucherStatus;
  readonly shareholder: {
    readonly name: string;
    /** The director's free-text address as stored; its line breaks are kept. */
    readonly address: string | null;
  };
  /** "Ordinary", "A Ordinary" … */
  readonly shareClass: string;
  /** Shares of that class the shareholder holds, a whole number above 0. */
  readonly sharesHeld: number;
  /** The gross dividend, pence: authoritative; the per-share figure is derived from it and rounded down. */
  readonly amountPence: number;
  /** YYYY-MM-DD */
  readonly declaredDate: string;
  /** YYYY-MM-DD when paid (a voided dividend keeps the date it had been paid on, if it had). */
  readonly paidDate: string | null;
  /** bank_transfer | dla_offset | cheque */
  readonly paymentMethod: string;
  readonly resolution: PdfResolution;
  /** YYYY-MM-DD when status is void, if known. */
  readonly voidedDate?: string | null;
}

/** One shareholder's part of the dividend the board resolved. */
export interface MinutesAllocation {
  readonly shareholderName: string;
  readonly shareClass: string;
  readonly sharesHeld: number;
  /** pence */
  readonly amountPence: number;
  /** The voucher's number once the dividend is declared; null before. */
  readonly voucherNumber: string | null;
}

export interface MinutesData {
  readonly company: PdfCompany;
  /** The resolution reference the minutes were given. */
  readonly resolutionReference: string;
  /** The meeting's date, YYYY-MM-DD. */
  readonly date: string;
  /** The directors present (active directors), by full name, in the order to print them. */
  readonly attendees: readonly string[];
  /** Who chaired the meeting: one of the attendees. */
  readonly chair: string;
  /** The end of the financial year whose profits were considered, YYYY-MM-DD. */
  readonly financialYearEnd: string;
  /** pence */
  readonly retainedProfitPence: number;
  /** The total dividend resolved, pence. */
  readonly totalDividendPence: number;
  /** Its split per shareholder; what they do not add up to is printed as not yet allocated. */
  readonly allocations: readonly MinutesAllocation[];
  readonly notes: string | null;
}
