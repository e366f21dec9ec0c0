-- Bug reports (issue 20): submitted with an organisation's API key; their titles and states are public on the transparency endpoints.
CREATE TABLE bug_reports (
  id TEXT PRIMARY KEY,
  organisation_id TEXT NOT NULL REFERENCES organisations (id),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low')),
  status TEXT NOT NULL CHECK (status IN ('open', 'acknowledged', 'investigating', 'resolved', 'wont_fix', 'duplicate')),
  page_url TEXT,
  browser_info TEXT,
  api_context TEXT,
  admin_notes TEXT,
  reported_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  resolved_at TEXT
);
CREATE INDEX bug_reports_by_organisation ON bug_reports (organisation_id, mode, created_at);
CREATE INDEX bug_reports_by_time ON bug_reports (mode, created_at);
