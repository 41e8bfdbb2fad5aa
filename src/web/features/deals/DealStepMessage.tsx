import { Text } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import { dataText, type TFunction } from '@web/lib/translator';

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
  return (
    <Text size="xs" c="dimmed" className={className} data-testid="deal-step">
      {dealStepText(code, actor, trade, t)}
    </Text>
  );
}

/** A deal step's words, as the conversation shows them (and the chat list's preview). */
export function dealStepText(code: string, actor: string, trade: boolean, t: TFunction): string {
  return dataText(t, `deals.steps.${code.replace(/\./g, '_')}`, {
    actor,
    ...(trade ? { context: 'trade' } : {}),
    defaultValue: t('deals.steps.other', { actor }),
  });
}
