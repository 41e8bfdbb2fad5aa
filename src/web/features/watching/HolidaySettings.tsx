import { Button, Card, Group, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import { HOLIDAY_REPLY_MAX, holidayEnd, holidayInputSchema } from '@shared/schemas/watching';
import { ApiError } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useMyHoliday, useSaveHoliday } from './api';
import { dataText } from '../../lib/translator';

/**
 * Settings: holiday mode. The last day away (tomorrow to 90 days ahead) and an optional automatic
 * reply; the same rules as the server's (@shared/schemas/watching), checked here first.
 */
export function HolidaySettings() {
  const { t, i18n } = useTranslation();
  const current = useMyHoliday();
  const save = useSaveHoliday();
  const holiday = current.data?.holiday ?? null;
  const [awayUntil, setAwayUntil] = useState('');
  const [autoReply, setAutoReply] = useState('');
  const [errors, setErrors] = useState<{ awayUntil?: string; autoReply?: string }>({});

  useEffect(() => {
    setAwayUntil(holiday?.awayUntil ?? '');
    setAutoReply(holiday?.autoReply ?? '');
  }, [holiday?.awayUntil, holiday?.autoReply]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = holidayInputSchema.safeParse({ awayUntil, autoReply });
    const found: typeof errors = {};
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        found[issue.path[0] as keyof typeof errors] ??= dataText(t, issue.message);
    else {
      const end = holidayEnd(parsed.data.awayUntil, new Date());
      if (!(end instanceof Date)) found.awayUntil = t(end.error);
    }
    setErrors(found);
    if (found.awayUntil || found.autoReply || !parsed.success) return;
    save.mutate(
      { awayUntil: parsed.data.awayUntil, autoReply: parsed.data.autoReply },
      {
        onSuccess: () => notify('green', t('holiday.settings.started')),
        onError: (err) => {
          const fields = err instanceof ApiError ? err.fields : undefined;
          if (fields) setErrors(fields as typeof errors);
          else notify('red', err.message || t('holiday.settings.failed'));
        },
      },
    );
  };

  const end = () =>
    save.mutate(null, {
      onSuccess: () => notify('green', t('holiday.settings.ended')),
      onError: (err) => notify('red', err.message || t('holiday.settings.failed')),
    });

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="settings-holiday-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} fz="lg" id="settings-holiday-title">
            {t('holiday.settings.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('holiday.settings.hint')}
          </Text>
          {holiday && (
            <Text fw={500} role="status" data-testid="holiday-on">
              {t('holiday.settings.on', { date: formatDate(holiday.awayUntil, i18n.language) })}
            </Text>
          )}
          <TextInput
            type="date"
            label={t('holiday.settings.awayUntil')}
            value={awayUntil}
            onChange={(e) => setAwayUntil(e.currentTarget.value)}
            error={errors.awayUntil}
            maw={240}
            required
          />
          <Textarea
            label={t('holiday.settings.autoReply')}
            description={t('holiday.settings.autoReplyHint')}
            value={autoReply}
            onChange={(e) => setAutoReply(e.currentTarget.value)}
            error={errors.autoReply}
            maxLength={HOLIDAY_REPLY_MAX}
            autosize
            minRows={2}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {holiday ? t('holiday.settings.update') : t('holiday.settings.start')}
            </Button>
            {holiday && (
              <Button variant="default" onClick={end} disabled={save.isPending}>
                {t('holiday.settings.end')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
