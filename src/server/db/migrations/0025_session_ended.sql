-- Ending a session must close its live sockets on every server process. Sessions end through
-- many paths (sign-out, sign out other devices, password reset, suspension, account deletion by
-- cascade, the 30-day limit, future ones), so the table itself announces it: every deleted row,
-- and every update that moves a live session's expiry into the past, sends NOTIFY on
-- scaffale_session_ended with the session id alone (32 characters; NOTIFY's limit is 8,000
-- bytes). Notifications are delivered after commit, so a rolled-back sign-out closes nothing.
-- No rows change here.
create or replace function scaffale_session_ended() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    perform pg_notify('scaffale_session_ended', old.id);
    return old;
  end if;
  if new.expires_at <= now() and old.expires_at > now() then
    perform pg_notify('scaffale_session_ended', old.id);
  end if;
  return new;
end
$$;

create trigger sessions_ended_on_delete
  after delete on sessions
  for each row execute function scaffale_session_ended();

create trigger sessions_ended_on_expiry
  after update of expires_at on sessions
  for each row execute function scaffale_session_ended();
