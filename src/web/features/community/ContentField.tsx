import { Group, Text, Textarea } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { intlLocale } from '@shared/intlLocale';

/**
 * The text of a post or comment with its counter: the count is of the trimmed text (what the
 * server stores), orange above `warnAt` and red past `max`.
 */
export function ContentField({
  value,
  onChange,
  max,
  warnAt,
  label,
  error,
  placeholder,
  minRows = 4,
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  max: number;
  warnAt: number;
  label: string;
  error?: string | null;
  placeholder?: string;
  minRows?: number;
  autoFocus?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const counterId = useId();
  const length = value.trim().length;
  const locale = intlLocale(i18n.language);
  // Orange 9 and red 9 keep 4.5:1 on white.
  const color = length > max ? 'red.9' : length > warnAt ? 'orange.9' : 'dimmed';
  return (
    <div>
      <Textarea
        label={label}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        autosize
        minRows={minRows}
        maxRows={14}
        withAsterisk
        error={error}
        autoFocus={autoFocus}
        aria-describedby={counterId}
      />
      <Group justify="flex-end" mt={4}>
        <Text
          id={counterId}
          size="xs"
          c={color}
          fw={length > warnAt ? 600 : undefined}
          data-testid="content-counter"
          data-state={length > max ? 'over' : length > warnAt ? 'warn' : 'ok'}
          aria-live={length > warnAt ? 'polite' : 'off'}
        >
          {t('community.form.counter', {
            count: length,
            used: length.toLocaleString(locale),
            max: max.toLocaleString(locale),
          })}
        </Text>
      </Group>
    </div>
  );
}
