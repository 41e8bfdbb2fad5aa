import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoney } from '@shared/money';
import type { WorkCopy } from '@shared/works';
import { MemberRating } from '../../components/MemberRating';

/** What a copy costs: its total with shipping, and how it is made up; or "for trade". */
function CopyPrice({ copy }: { copy: WorkCopy }) {
  const { t, i18n } = useTranslation();
  const money = (n: number) => formatMoney(n, copy.currency, i18n.language) ?? '';
  if (copy.total === null || copy.price === null)
    return (
      <Text fw={600} data-testid="copy-total">
        {t('works.forTrade')}
      </Text>
    );
  const price = money(copy.price);
  return (
    <div>
      <Text fz="xl" fw={700} data-testid="copy-total">
        {/* "with shipping" only where the shipping is known (else the line below says so). */}
        {copy.shippingCost === null
          ? money(copy.total)
          : t('works.total', { total: money(copy.total) })}
      </Text>
      <Text size="sm" c="dimmed">
        {copy.shippingCost === null
          ? t('works.shippingNotStated')
          : copy.shippingCost === 0
            ? t('works.freeShipping', { price })
            : t('works.priceAndShipping', { price, shipping: money(copy.shippingCost) })}
      </Text>
    </div>
  );
}

/** One available copy of a work: condition, language, seller and rating, price with shipping. */
export function CopyRow({ copy }: { copy: WorkCopy }) {
  const { t } = useTranslation();
  return (
    <Paper component="li" withBorder p="md" data-testid="work-copy">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={6} style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Group gap="xs">
            <Badge variant="light">{t(`conditions.${copy.condition}`)}</Badge>
            {copy.language && (
              <Badge variant="outline" color="gray">
                {copy.language}
              </Badge>
            )}
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {copy.title}
          </Text>
          <Group gap="xs" wrap="wrap">
            <Text size="sm" c="dimmed">
              {t('works.seller')}
            </Text>
            <Anchor component={Link} to={`/user/${copy.seller.id}`} size="sm" fw={600}>
              {copy.seller.displayName}
            </Anchor>
            <MemberRating
              size="sm"
              testId="copy-seller-rating"
              rating={{ average: copy.seller.rating, reviewCount: copy.seller.reviewCount }}
            />
          </Group>
          {copy.location && (
            <Text size="xs" c="dimmed">
              {copy.location}
            </Text>
          )}
        </Stack>
        <Stack gap="xs" align="flex-end" style={{ flex: '0 0 auto', marginInlineStart: 'auto' }}>
          <CopyPrice copy={copy} />
          <Button
            component={Link}
            to={`/library/book/${copy.id}`}
            variant="light"
            size="xs"
            aria-label={t('works.seeCopyOf', { seller: copy.seller.displayName })}
          >
            {t('works.seeCopy')}
          </Button>
        </Stack>
      </Group>
    </Paper>
  );
}
