import t from 'tap';
import { detectDateFormat, parseDateAs } from '../../src/engine/tabular/date-formats.js';

t.test('each format reads its dates into YYYY-MM-DD', async (t) => {
  const cases: [string, string, string][] = [
    ['15/01/2024', 'DD/MM/YYYY', '2024-01-15'],
    ['5/1/2024', 'DD/MM/YYYY', '2024-01-05'],
    ['2024-01-15', 'YYYY-MM-DD', '2024-01-15'],
    ['2024-01-15 10:23:45', 'YYYY-MM-DD', '2024-01-15'],
    ['2024-01-15T10:23:45Z', 'YYYY-MM-DD', '2024-01-15'],
    ['01/15/2024', 'MM/DD/YYYY', '2024-01-15'],
    ['15-01-2024', 'DD-MM-YYYY', '2024-01-15'],
    ['15.01.2024', 'DD.MM.YYYY', '2024-01-15'],
    ['15 Jan 2024', 'DD MMM YYYY', '2024-01-15'],
    ['15-Jan-2024', 'DD MMM YYYY', '2024-01-15'],
    ['3 September 2024', 'DD MMM YYYY', '2024-09-03'],
    ['3 Sept 2024', 'DD MMM YYYY', '2024-09-03'],
    ['15/01/24', 'DD/MM/YY', '2024-01-15'],
    ['20240115', 'YYYYMMDD', '2024-01-15'],
    ['29/02/2024', 'DD/MM/YYYY', '2024-02-29'],
  ];
  for (const [text, format, iso] of cases) t.equal(parseDateAs(text, format), iso, `${text} as ${format}`);
});

t.test('impossible dates and other formats are not read', async (t) => {
  const cases: [string, string][] = [
    ['31/02/2024', 'DD/MM/YYYY'],
    ['29/02/2023', 'DD/MM/YYYY'],
    ['15/13/2024', 'DD/MM/YYYY'],
    ['01/15/2024', 'DD/MM/YYYY'],
    ['2024-01-15', 'DD/MM/YYYY'],
    ['15 Foo 2024', 'DD MMM YYYY'],
    ['15 Ja 2024', 'DD MMM YYYY'],
    ['12345678', 'YYYYMMDD'], // an account number: month 56
    ['15/01/1850', 'DD/MM/YYYY'], // before the books' first year
    ['', 'DD/MM/YYYY'],
    ['15/01/2024', 'NOT A FORMAT'],
  ];
  for (const [text, format] of cases) t.equal(parseDateAs(text, format), null, `${text} as ${format}`);
});

t.test('a column of dates settles day and month by looking at every row', async (t) => {
  t.equal(detectDateFormat(['01/02/2024', '03/02/2024', '13/02/2024']), 'DD/MM/YYYY', 'the 13 in the last row decides');
  t.equal(detectDateFormat(['02/01/2024', '02/03/2024', '02/13/2024']), 'MM/DD/YYYY', 'a 13 in the second place makes it American');
  t.equal(detectDateFormat(['01/02/2024', '03/04/2024']), 'DD/MM/YYYY', 'undecidable: the UK reading');
  // As DD/MM these run 1 Feb, 2 Jan, 3 Jan (out of order); as MM/DD 2 Jan, 1 Feb, 1 Mar (in order).
  t.equal(detectDateFormat(['01/02/2024', '02/01/2024', '03/01/2024']), 'MM/DD/YYYY', 'between two full readings, the one in date order');
  t.equal(
    detectDateFormat(['01/02/2024', '02/01/2024', '03/01/2024'], undefined, false),
    'DD/MM/YYYY',
    'order not asked for (a list sorted by contact): the UK reading',
  );
  t.equal(detectDateFormat(['01/02/2024', '01/30/2024'], undefined, false), 'MM/DD/YYYY', 'a second field above 12 is month first all the same');
  t.equal(detectDateFormat(['2024-03-01', '2024-03-02']), 'YYYY-MM-DD');
  t.equal(detectDateFormat(['1 Mar 2024', '2 Mar 2024']), 'DD MMM YYYY');
  t.equal(detectDateFormat(['15/01/2024', 'rubbish', '16/01/2024']), 'DD/MM/YYYY', 'a broken value does not stop detection');
  t.equal(detectDateFormat(['rubbish']), null);
  t.equal(detectDateFormat(['01/02/2024', '03/04/2024'], 'MM/DD/YYYY'), 'MM/DD/YYYY', "a preset's format decides a tie");
});
