/** The presenters of VAT: a return's nine boxes (draft or filed), the periods, the filed returns. */
import { fileVatReturnOp, getVatReturnOp, listVatReturnsOp, vatPeriodReturnOp, vatPeriodsOp } from '../../engine/vat/vat-ops.js';
import { rateDays, type ShownReturnView, type VatReturnView } from '../../engine/vat/returns.js';
import { sterling } from '../../engine/money.js';
import { presenter, type Cell, type Presented, type Presenter } from './index.js';
import { essential } from '../fit-table.js';

const boxes = ['box1', 'box2', 'box3', 'box4', 'box5', 'box6', 'box7', 'box8', 'box9'] as const;

/** The flat rates a return applied, each on its days' turnover, giving its part of box 1; none under the standard scheme. */
export function flatRateNotes(rates: VatReturnView['flatRates']): string[] {
  if (rates === null || rates.length === 0) return [];
  const parts = rates.map((r, i) => `${r.percent}% ${rateDays(rates, i)} on ${sterling(r.turnover)}: ${sterling(r.vat)}`);
  return [`Box 1, the flat rate${rates.length === 1 ? '' : 's'} applied: ${parts.join('; ')}`];
}

/**
 * Which way box 5 goes, in words, for the cell beside its figure: HMRC's
 * box 5 is always positive, so the figure alone cannot say it. Nothing for
 * a nil return.
 */
export function box5Direction(direction: VatReturnView['netVatDirection'] | null): string | null {
  return direction === 'payable' ? 'to pay' : direction === 'repayable' ? 'to reclaim' : null;
}

/**
 * The columns of a return's boxes: the direction beside the amount, kept
 * however narrow the terminal (the description is cut first).
 */
export const boxColumns = ['box', 'description', 'amount', 'direction'] as const;
export const boxKeep = [essential, 3, essential, essential] as const;

/** The boxes as HMRC's form has them, box 5 with its direction and boxes 6 to 9 with their exact pence. */
function returnTable(d: VatReturnView): Presented {
  const rate = d.flatRatePercent === null ? '' : ` ${d.flatRatePercent}%`;
  const notes = flatRateNotes(d.flatRates);
  return {
    ...(notes.length > 0 && { notes }),
    title: `VAT return ${d.period.from} to ${d.period.to} (${d.periodKey}, ${d.status}; ${d.scheme}${rate}, ${d.basis} basis; due ${d.dueDate})`,
    columns: [...boxColumns, 'exact'],
    money: [2, 4],
    keep: boxKeep,
    rows: boxes.map((box): Cell[] => {
      const exact = box === 'box6' || box === 'box7' || box === 'box8' || box === 'box9' ? d.exact[box] : null;
      const direction = box === 'box5' ? box5Direction(d.netVatDirection) : null;
      return [box.replace('box', ''), d.description[box], d.boxes[box], direction, exact === d.boxes[box] ? null : exact];
    }),
  };
}

/** A draft shown while an earlier period waits: the boxes, and which return is filed first. */
function shownTable(d: ShownReturnView): Presented {
  const first = d.fileFirst;
  if (first === null) return returnTable(d);
  const table = returnTable(d);
  return {
    ...table,
    notes: [
      ...(table.notes ?? []),
      `File ${first.periodKey} (${first.from} to ${first.to}) first: it holds VAT not yet filed.`,
      `This draft is ${d.periodKey} alone, as filing will give it once ${first.periodKey} is filed.`,
    ],
  };
}

export const vatPresenters: readonly Presenter[] = [
  presenter(vatPeriodReturnOp, shownTable),
  presenter(fileVatReturnOp, returnTable),
  presenter(getVatReturnOp, returnTable),
  presenter(vatPeriodsOp, (d) => ({
    title: 'VAT periods',
    columns: ['period', 'from', 'to', 'due', 'status', 'box 5', 'direction'],
    money: [5],
    rows: d.periods.map((p): Cell[] => [p.periodKey, p.from, p.to, p.dueDate, p.status, p.netVat, p.netVatDirection]),
  })),
  presenter(listVatReturnsOp, (d) => ({
    title: 'Filed VAT returns',
    columns: ['id', 'period', 'from', 'to', 'status', 'box 5', 'direction', 'filed'],
    money: [5],
    rows: d.returns.map((r): Cell[] => [r.id, r.periodKey, r.period.from, r.period.to, r.status, r.boxes.box5, r.netVatDirection, r.filedAt]),
  })),
];
