/**
 * Helpers of the voucher and minutes tests (not a test file itself): the
 * company they are printed for, and what poppler reads from a PDF besides
 * its layout text (pdfText): its metadata and its diagonal text, which on
 * these documents is the PAID or VOID watermark and nothing else.
 */
import { execFileSync } from 'node:child_process';
import type { PdfCompany } from '../../src/pdf/voucher-data.js';

export const company: PdfCompany = {
  name: 'Acme Widgets Ltd',
  companyNumber: '01234567',
  address: ['12 High Street', 'Unit 4', 'Bristol', 'BS1 4DJ', 'United Kingdom'],
};

/** `pdfinfo` of the document: Title, Keywords, Pages, Page size … */
export function pdfInfo(bytes: Uint8Array): string {
  return execFileSync('pdfinfo', ['-'], { input: bytes, encoding: 'utf8' });
}

/** The text set at an angle, letters joined: what `pdftotext -raw` finds that `-nodiag` (discard diagonal text) does not. */
export function diagonalText(bytes: Uint8Array): string {
  const raw = (args: string[]) => execFileSync('pdftotext', [...args, '-raw', '-', '-'], { input: bytes, encoding: 'utf8' }).split('\n');
  const straight = raw(['-nodiag']);
  const left: string[] = [];
  for (const line of raw([])) {
    const i = straight.indexOf(line);
    if (i >= 0) straight.splice(i, 1);
    else left.push(line);
  }
  return left.join('').replace(/\s+/g, '');
}

/** `pdftotext -layout` without the diagonal text: a watermark would otherwise shuffle the reading order of the lines it crosses. */
export function straightText(bytes: Uint8Array): string {
  return execFileSync('pdftotext', ['-layout', '-nodiag', '-', '-'], { input: bytes, encoding: 'utf8' });
}

/** The text with every run of white space made one space, for sentences that the layout may wrap. */
export function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}
