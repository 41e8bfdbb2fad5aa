import { Text } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';

/**
 * A step of a deal in the conversation ('deal.opened', 'post.shipped', ...): one line in the
 * reader's language, `deals.steps.<code>` with dots as underscores, naming who took it.
 */
export function DealStepMessage({
  code,
  actor,
  className,
  trade = false,
}: {
  code: string;
  /** A trade's deal (decision 0080): the step's words with the context 'trade' when it has them. */
  trade?: boolean;
  actor: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const key = `deals.steps.${code.replace(/\./g, '_')}`;
  return (
    <Text size="xs" c="dimmed" className={className} data-testid="deal-step">
      {t(key, {
        actor,
        ...(trade ? { context: 'trade' } : {}),
        defaultValue: t('deals.steps.other', { actor }),
      })}
    </Text>
  );
}
