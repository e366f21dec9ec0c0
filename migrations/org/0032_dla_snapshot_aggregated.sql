-- A year-end DLA snapshot keeps the aggregated balance at the period end
-- (the director's with each connected person's, signed) beside the
-- director's own. Snapshots taken before this column get the director's
-- balance as kept plus the connected persons' movements to the period end
-- as the books hold them now.
ALTER TABLE dla_snapshots ADD COLUMN aggregated_balance INTEGER NOT NULL DEFAULT 0;
UPDATE dla_snapshots SET aggregated_balance = balance + COALESCE((
  SELECT SUM(t.amount) FROM dla_transactions t JOIN directors d ON d.id = t.director_id
  WHERE d.connected_to_director_id = dla_snapshots.director_id AND t.date <= dla_snapshots.period_end_date
), 0);
