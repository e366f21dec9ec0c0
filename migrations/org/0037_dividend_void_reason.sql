-- A dividend's void may say why (POST /dividends/{id}/void {reason}, 1 to 500
-- characters, as published); earlier voids have none.
ALTER TABLE dividends ADD COLUMN void_reason TEXT;
