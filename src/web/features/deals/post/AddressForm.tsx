import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  addressInputSchema,
  COUNTRIES,
  type AddressInput,
  type PostalAddress,
} from '@shared/schemas/dealPost';
import { ApiError } from '../../../lib/api';
import { dataText } from '../../../lib/translator';

type Fields = Required<AddressInput>;
type Errors = Partial<Record<keyof Fields, string>>;
const EMPTY: Fields = {
  name: '',
  street: '',
  postalCode: '',
  city: '',
  region: '',
  country: 'IT',
  phone: '',
};

/** Country names in the reader's language (the list of @shared/schemas/dealPost). */
export function useCountryOptions() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    return COUNTRIES.map((c) => ({ value: c, label: names.of(c) ?? c })).sort((a, b) =>
      a.label.localeCompare(b.label, i18n.language),
    );
  }, [i18n.language]);
}

/**
 * A postal address form, checked with the server's own rules first; `onSubmit` resolves or throws
 * the server's error (its field messages are shown beside the fields).
 */
export function AddressForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  busy,
}: {
  initial?: PostalAddress;
  submitLabel: string;
  onSubmit: (address: AddressInput) => Promise<unknown>;
  onCancel?: () => void;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const countries = useCountryOptions();
  const [values, setValues] = useState<Fields>({ ...EMPTY, ...initial } as Fields);
  const [errors, setErrors] = useState<Errors>({});
  const field = (name: keyof Fields) => ({
    value: values[name],
    error: errors[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [name]: value }));
    },
  });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = addressInputSchema.safeParse(values);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues)
        found[issue.path[0] as keyof Fields] ??= dataText(t, issue.message);
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      await onSubmit(parsed.data);
    } catch (err) {
      if (err instanceof ApiError && err.fields) setErrors(err.fields as Errors);
      else setErrors({ name: err instanceof Error ? err.message : t('errors.general') });
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <TextInput
          label={t('deals.post.address.name')}
          required
          maxLength={100}
          {...field('name')}
        />
        <TextInput
          label={t('deals.post.address.street')}
          required
          maxLength={200}
          {...field('street')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <TextInput
            label={t('deals.post.address.postalCode')}
            required
            maxLength={12}
            {...field('postalCode')}
          />
          <TextInput
            label={t('deals.post.address.city')}
            required
            maxLength={100}
            {...field('city')}
          />
          <TextInput label={t('deals.post.address.region')} maxLength={100} {...field('region')} />
          <Select
            label={t('deals.post.address.country')}
            required
            searchable
            allowDeselect={false}
            data={countries}
            value={values.country}
            error={errors.country}
            onChange={(value) =>
              value && setValues((v) => ({ ...v, country: value as Fields['country'] }))
            }
          />
        </SimpleGrid>
        <TextInput
          label={t('deals.post.address.phone')}
          type="tel"
          maxLength={20}
          {...field('phone')}
        />
        <Group gap="xs">
          <Button type="submit" size="compact-sm" loading={busy}>
            {submitLabel}
          </Button>
          {onCancel && (
            <Button size="compact-sm" variant="default" onClick={onCancel}>
              {t('deals.post.address.cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** An address as lines of text. */
export function AddressLines({ address }: { address: PostalAddress }) {
  const countries = useCountryOptions();
  const country = countries.find((c) => c.value === address.country)?.label ?? address.country;
  const lines = [
    address.name,
    address.street,
    [address.postalCode, address.city, address.region].filter(Boolean).join(' '),
    country,
    address.phone,
  ].filter(Boolean);
  return (
    <address
      style={{
        fontStyle: 'normal',
        whiteSpace: 'pre-line',
        fontSize: 'var(--mantine-font-size-xs)',
      }}
    >
      {lines.join('\n')}
    </address>
  );
}
