import { Alert, Button, Paper, Stack, Textarea } from '@mantine/core';
import { IconAlertCircle, IconMessage } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useNavigate, useSearchParams } from '@web/lib/router';
import type { ListingDetail } from '@shared/marketplace';
import { useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { contactSeller } from './api';
import { CHAT_MESSAGE_MAX } from './limits';

const LABELS = { sell: 'buy', trade: 'trade', both: 'seller' } as const;
/** Added to the return path of a visitor sent to sign in: back on the detail, the box is open. */
const CONTACT_PARAM = 'contact';

/**
 * The book detail's contact control: contact to buy, to trade, or the seller, by listing type.
 * Only on available listings and never on one's own; a visitor is sent to sign in and comes back
 * here; a member writes a message, which opens (or makes) the direct room with the seller.
 */
export function ContactSeller({ listing }: { listing: ListingDetail }) {
  const { t } = useTranslation();
  const session = useSession();
  const [params] = useSearchParams();
  const [open, setOpen] = useState(() => params.get(CONTACT_PARAM) === '1');
  if (listing.status !== 'available' || !listing.isActive || session.status === 'loading')
    return null;
  const label = t(`contactSeller.${LABELS[listing.listingType]}`);
  if (session.status === 'signed-out') {
    const back = `/library/book/${listing.id}?${CONTACT_PARAM}=1`;
    return (
      <Button
        component={Link}
        to={`/login?redirect_to=${encodeURIComponent(back)}`}
        leftSection={<IconMessage size={18} aria-hidden />}
        w="fit-content"
      >
        {label}
      </Button>
    );
  }
  if (session.user.id === listing.seller.id) return null;
  if (!open)
    return (
      <Button
        leftSection={<IconMessage size={18} aria-hidden />}
        onClick={() => setOpen(true)}
        w="fit-content"
      >
        {label}
      </Button>
    );
  return <ContactBox listing={listing} meId={session.user.id} />;
}

function ContactBox({ listing, meId }: { listing: ListingDetail; meId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState(() => t('contactSeller.draft', { title: listing.title }));
  const contact = useMutation({
    mutationFn: (content: string) => contactSeller(listing.id, content),
    onSuccess: ({ roomId }) =>
      navigate(`/profile/${encodeURIComponent(meId)}/chats?room=${encodeURIComponent(roomId)}`),
  });
  const content = text.trim();
  const tooLong = content.length > CHAT_MESSAGE_MAX;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!content || tooLong || contact.isPending) return;
    contact.mutate(content);
  };

  const err = contact.error;
  // A refused message (its content) is a send failure; anything else failed to start the chat.
  const sendFailed = err instanceof ApiError && err.status === 400 && !!err.fields?.content;
  const detail =
    err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.message : null;
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label={t('contactSeller.messageLabel', { name: listing.seller.displayName })}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={8}
          autoFocus
          error={tooLong ? t('contactSeller.tooLong', { max: CHAT_MESSAGE_MAX }) : undefined}
        />
        {err && (
          <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" p="xs">
            {sendFailed ? t('contactSeller.errors.send') : t('contactSeller.errors.start')}
            {detail && detail !== t('contactSeller.errors.start') ? ` ${detail}` : ''}
          </Alert>
        )}
        <Button
          type="submit"
          loading={contact.isPending}
          disabled={!content || tooLong}
          leftSection={<IconMessage size={18} aria-hidden />}
          w="fit-content"
        >
          {t('contactSeller.send')}
        </Button>
      </Stack>
    </Paper>
  );
}
