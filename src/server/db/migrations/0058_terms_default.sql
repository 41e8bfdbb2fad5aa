-- The server refuses a member's changes until the terms are accepted (decision 0093, amended).
-- Sign-up writes the acceptance itself: the e-mail form's time, or null for a Google account,
-- which is asked on its first visit; accounts made before the terms keep their null. A member
-- made outside sign-up (a test, a benchmark, an operator's script) is taken as having accepted.
alter table users alter column terms_accepted_at set default now();
