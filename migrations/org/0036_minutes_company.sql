-- Board minutes print the company's name and number as they were at the
-- meeting, as a dividend's voucher prints them as declared (0031). Until now
-- the minutes read the organisation as it stands, so renaming the company
-- rewrote the minutes of every earlier meeting, beside vouchers that kept the
-- old name. Minutes recorded before this column take the name and number
-- their first dividend was declared with, else those the company has now.
ALTER TABLE board_minutes ADD COLUMN company_name TEXT;
ALTER TABLE board_minutes ADD COLUMN company_number TEXT;
UPDATE board_minutes SET
  company_name = (SELECT name FROM organisation),
  company_number = (SELECT company_number FROM organisation);
UPDATE board_minutes SET
  company_name = (SELECT d.company_name FROM dividends d WHERE d.board_minutes_id = board_minutes.id ORDER BY d.created_at, d.id LIMIT 1),
  company_number = (SELECT d.company_number FROM dividends d WHERE d.board_minutes_id = board_minutes.id ORDER BY d.created_at, d.id LIMIT 1)
WHERE EXISTS (SELECT 1 FROM dividends d WHERE d.board_minutes_id = board_minutes.id);
