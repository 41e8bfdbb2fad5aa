import { Button, Group, Modal, Radio, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  REPORT_REASONS,
  REPORT_TEXT_MAX,
  VISITOR_REPORT_REASON,
  type ReportReason,
} from '@shared/moderation';
import { useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { useReport } from './api';
import { kindName } from './kinds';

export interface ReportTarget {
  /** A reportable kind registered on the server: 'listing', 'profile', 'message', 'post', … */
  kind: string;
  id: string;
}

/**
 * The one report dialog of the app: a reason, optional details and, for visitors (who may
 * report illegal content only), their name and e-mail. Every reportable item opens it.
 */
export function ReportDialog({
  opened,
  onClose,
  kind,
  id,
}: ReportTarget & { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const visitor = session.status !== 'signed-in';
  const [reason, setReason] = useState<ReportReason | ''>(visitor ? VISITOR_REPORT_REASON : '');
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const report = useReport();
  const kindLabel = kindName(t, kind);
  const error = report.error instanceof ApiError ? report.error : null;
  const fieldError = (f: string) => error?.fields?.[f];

  const close = () => {
    report.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    report.mutate(
      {
        kind,
        id,
        reason: (reason || undefined) as ReportReason,
        ...(text.trim() ? { text } : {}),
        ...(visitor ? { name, email } : {}),
      },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            message: t('moderation.report.sent'),
            closeButtonProps: { 'aria-label': t('common.close') },
          });
          setText('');
          close();
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('moderation.report.title', { kind: kindLabel, context: kind })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{t('moderation.report.intro')}</Text>
          {visitor && (
            <Text size="sm" c="dimmed">
              {t('moderation.report.visitorNote')}
            </Text>
          )}
          <Radio.Group
            label={t('moderation.report.reasonLabel')}
            value={reason}
            onChange={(v) => setReason(v as ReportReason)}
            withAsterisk
            error={fieldError('reason')}
          >
            <Stack gap={6} mt={6}>
              {REPORT_REASONS.map((r) => (
                <Radio
                  key={r}
                  value={r}
                  label={t(`moderation.reasons.${r}`)}
                  disabled={visitor && r !== VISITOR_REPORT_REASON}
                />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea
            label={t('moderation.report.textLabel')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            maxLength={REPORT_TEXT_MAX}
            autosize
            minRows={2}
            error={fieldError('text')}
          />
          {visitor && (
            <>
              <TextInput
                label={t('moderation.report.nameLabel')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                required
                autoComplete="name"
                error={fieldError('name')}
              />
              <TextInput
                label={t('moderation.report.emailLabel')}
                type="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                required
                autoComplete="email"
                error={fieldError('email')}
              />
            </>
          )}
          {error && !error.fields && (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {error.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('moderation.report.cancel')}
            </Button>
            <Button type="submit" color="red.9" loading={report.isPending}>
              {t('moderation.report.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
