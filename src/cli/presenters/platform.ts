/** The presenters of the platform's lists: bug reports and the public transparency entries, one line a report. */
import { listBugReports } from '../../engine/platform/bug-reports.js';
import { transparencyEntries } from '../../engine/platform/transparency.js';
import { listPresenter, type Presenter } from './index.js';

const day = (at: string | null): string | null => (at === null ? null : at.slice(0, 10));

export const platformPresenters: readonly Presenter[] = [
  listPresenter(listBugReports, 'Bug reports', [
    ['id', 'id'],
    ['reported', 'createdAt', day],
    ['severity', 'severity'],
    ['status', 'status'],
    ['title', 'title'],
    ['resolved', 'resolvedAt', day],
  ]),
  listPresenter(transparencyEntries, 'Reported bugs', [
    ['reported', 'createdAt', day],
    ['severity', 'severity'],
    ['status', 'status'],
    ['title', 'title'],
    ['resolved', 'resolvedAt', day],
  ]),
];
