import { Alert, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { BUNDLE_MAX_SHIPPING } from '@shared/schemas/bundles';
import { MoneyInput } from '../../../components/MoneyInput';
import { useBundleRule, useSaveBundleRule } from './api';

/**
 * The seller's bundle shipping rule: the highest single shipping cost of the bundle's books (the
 * default), or a price they set for the whole parcel.
 */
export function BundleRuleSettings() {
  const { t } = useTranslation();
  const headingId = useId();
  const rule = useBundleRule();
  const save = useSaveBundleRule();
  const [mode, setMode] = useState<'highest' | 'fixed'>('highest');
  const [price, setPrice] = useState<string | number>('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const current = rule.data?.rule.shippingAmount;
  useEffect(() => {
    if (current === undefined) return;
    setMode(current === null ? 'highest' : 'fixed');
    setPrice(current ?? '');
  }, [current]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const value = price === '' ? Number.NaN : Number(price);
    if (mode === 'fixed' && (!Number.isFinite(value) || value < 0 || value > BUNDLE_MAX_SHIPPING))
      return setError(t('deals.bundle.errors.ruleAmount'));
    setError(null);
    save.mutate(
      { shippingAmount: mode === 'fixed' ? Math.round(value * 100) / 100 : null },
      { onSuccess: () => setSaved(true) },
    );
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} fz="lg" id={headingId}>
            {t('deals.bundle.rule.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('deals.bundle.rule.help')}
          </Text>
          <Radio.Group
            label={t('deals.bundle.rule.label')}
            value={mode}
            onChange={(v) => {
              setSaved(false);
              setMode(v as 'highest' | 'fixed');
            }}
          >
            <Stack gap={4} mt={4}>
              <Radio value="highest" label={t('deals.bundle.rule.highest')} />
              <Radio value="fixed" label={t('deals.bundle.rule.fixed')} />
            </Stack>
          </Radio.Group>
          {mode === 'fixed' && (
            <MoneyInput
              label={t('deals.bundle.rule.price')}
              value={price}
              onChange={(v) => {
                setSaved(false);
                setPrice(v);
              }}
              error={error}
              maw={220}
            />
          )}
          {save.isError && (
            <Alert color="red" role="alert" p="xs">
              {save.error.message}
            </Alert>
          )}
          <Group gap="sm">
            <Button type="submit" loading={save.isPending} disabled={rule.isPending}>
              {t('deals.bundle.rule.save')}
            </Button>
            {saved && (
              <Text size="sm" c="teal.9" role="status">
                {t('deals.bundle.rule.saved')}
              </Text>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
