-- Sign-up asks for the terms of service (issue 33 item 10): when a member accepted them, and
-- which terms (their date, TERMS_VERSION). Accounts made before, and Google accounts until they
-- answer the first-visit page, have none: the web asks them before anything else.
alter table users add column terms_accepted_at timestamptz;
alter table users add column terms_version text;
