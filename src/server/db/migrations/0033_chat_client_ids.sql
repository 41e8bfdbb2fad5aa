-- Messages sent with a client-made id (issue 23, docs/decisions/0065): a tab sends a message over
-- its socket (or POSTs it) with a UUID it made, and sends it again after a reconnect or a timeout.
-- The pair (sender, client id) is unique, so a retried send finds the stored message instead of
-- storing a second one, whichever process or path (frame or POST) it takes. Old rows, and clients
-- that send no id, keep client_id null: nulls never collide.
alter table chat_messages add column client_id uuid;
alter table chat_messages
  add constraint chat_messages_sender_client_key unique (sender_id, client_id);
