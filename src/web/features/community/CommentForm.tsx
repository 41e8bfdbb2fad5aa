import { Button, Group, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ApiError } from '../../lib/api';
import { ContentField } from './ContentField';
import { COMMENT_MAX, POST_CONTENT_WARN } from './contract';

/**
 * Writing or editing a comment: trimmed, not empty, at most 2,000 characters. `onSubmit` resolves
 * when saved (the text is cleared) and rejects with the server's error (the text stays).
 */
export function CommentForm({
  label,
  submitLabel,
  initial = '',
  onSubmit,
  onCancel,
  autoFocus,
}: {
  label: string;
  submitLabel: string;
  initial?: string;
  onSubmit: (content: string) => Promise<unknown>;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const content = text.trim();
    setFormError(null);
    if (!content) return setError(t('communityApi.validation.contentRequired'));
    if (content.length > COMMENT_MAX) return setError(t('communityApi.validation.commentTooLong'));
    setError(null);
    setPending(true);
    try {
      await onSubmit(content);
      setText('');
    } catch (err) {
      if (err instanceof ApiError && err.fields?.content) setError(err.fields.content);
      else setFormError(err instanceof ApiError ? err.message : t('errors.general'));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <ContentField
          label={label}
          value={text}
          onChange={setText}
          max={COMMENT_MAX}
          warnAt={POST_CONTENT_WARN}
          error={error}
          minRows={2}
          autoFocus={autoFocus}
        />
        {formError && (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {formError}
          </Text>
        )}
        <Group justify="flex-end" gap="xs">
          {onCancel && (
            <Button variant="default" size="xs" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
          )}
          <Button type="submit" size="xs" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
