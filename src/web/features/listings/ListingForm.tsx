import { Button, Checkbox, Grid, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  CONDITIONS,
  CURRENCIES,
  FORM_GENRES,
  LISTING_TYPES,
  listingFormSchema,
  type CatalogueBook,
  type ListingDetail,
  type ListingForm as ListingFormOutput,
} from '@shared/marketplace';
import { bookLanguageName } from '@shared/bookLanguage';
import {
  CurrencySelect,
  DescriptionInput,
  HalfCol,
  IsbnInput,
  MoneyInput,
} from '../../components/formFields';
import { CatalogueSearch } from '../catalogue';
import { CoverUpload } from '../../components/CoverUpload';
import { translatedResolver, useServerSubmit } from './useZodForm';

export interface ListingFormValues {
  title: string;
  author: string;
  genre: string;
  condition: string;
  listingType: string;
  price: number | string;
  currency: string;
  description: string;
  isbn: string;
  language: string;
  location: string;
  shippingCost: number | string;
  isNegotiable: boolean;
  coverUrl: string;
}

const EMPTY: ListingFormValues = {
  title: '',
  author: '',
  genre: '',
  condition: 'good',
  listingType: 'sell',
  price: '',
  currency: 'EUR',
  description: '',
  isbn: '',
  language: '',
  location: '',
  shippingCost: '',
  isNegotiable: false,
  coverUrl: '',
};

/** Only our own uploads can be sent back as coverUrl; proxied remote covers stay as they are. */
const isOwnUpload = (url: string | null) => !!url && url.startsWith('/uploads/');

export function valuesFromListing(l: ListingDetail): ListingFormValues {
  return {
    title: l.title,
    author: l.author,
    genre: l.genre,
    condition: l.condition,
    listingType: l.listingType,
    price: l.price ?? '',
    currency: l.currency,
    description: l.description ?? '',
    isbn: l.isbn ?? '',
    language: l.language ?? '',
    location: l.location ?? '',
    shippingCost: l.shippingCost ?? '',
    isNegotiable: l.isNegotiable,
    coverUrl: isOwnUpload(l.coverUrl) ? l.coverUrl! : '',
  };
}

/**
 * The full listing form: validated with the shared schema (messages translated), server field
 * errors shown beside their fields. `onSubmit` receives the parsed values.
 */
export function ListingForm({
  listing,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  listing?: ListingDetail;
  submitLabel: string;
  onSubmit: (values: ListingFormOutput) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const form = useForm<ListingFormValues>({
    mode: 'controlled',
    initialValues: listing ? valuesFromListing(listing) : EMPTY,
    validate: translatedResolver(listingFormSchema, t) as never,
  });
  const type = form.values.listingType;
  const priceRequired = type !== 'trade';

  const genres: string[] = [...FORM_GENRES];
  // A listing may carry a marketplace-only genre (textbook, comics): keep it selectable.
  if (form.values.genre && !genres.includes(form.values.genre)) genres.push(form.values.genre);

  const fillFromCatalogue = (book: CatalogueBook) => {
    form.setValues({
      title: book.title,
      author: book.author,
      ...(book.isbn ? { isbn: book.isbn } : {}),
      // By name ("Italiano"), as members write it here: the catalogue gives a code ('it').
      ...(book.language && !form.values.language
        ? { language: bookLanguageName(book.language) ?? '' }
        : {}),
    });
  };

  const { submitting, submitParsed } = useServerSubmit(form, onSubmit);
  const submit = form.onSubmit(async (values) => {
    const parsed = listingFormSchema.safeParse(values);
    if (!parsed.success) return;
    await submitParsed(parsed.data);
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {!listing && (
          <CatalogueSearch
            onSelect={fillFromCatalogue}
            description={t('sell.catalogue.fillHint')}
          />
        )}
        <Grid gutter="md">
          <HalfCol>
            <TextInput
              label={t('sell.fields.title')}
              withAsterisk
              maxLength={300}
              {...form.getInputProps('title')}
            />
          </HalfCol>
          <HalfCol>
            <TextInput
              label={t('sell.fields.author')}
              withAsterisk
              maxLength={300}
              {...form.getInputProps('author')}
            />
          </HalfCol>
          <HalfCol>
            <NativeSelect
              label={t('sell.fields.genre')}
              withAsterisk
              data={[
                { value: '', label: t('sell.fields.genrePlaceholder') },
                ...genres.map((g) => ({ value: g, label: t(`genres.${g}`) })),
              ]}
              {...form.getInputProps('genre')}
            />
          </HalfCol>
          <HalfCol>
            <NativeSelect
              label={t('sell.fields.condition')}
              data={CONDITIONS.map((c) => ({ value: c, label: t(`conditions.${c}`) }))}
              {...form.getInputProps('condition')}
            />
          </HalfCol>
          <HalfCol>
            <NativeSelect
              label={t('sell.fields.listingType')}
              data={LISTING_TYPES.map((c) => ({ value: c, label: t(`listingTypes.${c}`) }))}
              {...form.getInputProps('listingType')}
            />
          </HalfCol>
          <Grid.Col span={{ base: 7, sm: 3 }}>
            <MoneyInput
              label={t('sell.fields.price')}
              withAsterisk={priceRequired}
              allowNegative={false}
              {...form.getInputProps('price')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 5, sm: 3 }}>
            <CurrencySelect
              label={t('sell.fields.currency')}
              currencies={CURRENCIES}
              {...form.getInputProps('currency')}
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <DescriptionInput
              label={t('sell.fields.description')}
              maxLength={5000}
              {...form.getInputProps('description')}
            />
          </Grid.Col>
          <HalfCol>
            <IsbnInput
              label={t('sell.fields.isbn')}
              description={t('sell.fields.isbnHint')}
              {...form.getInputProps('isbn')}
            />
          </HalfCol>
          <HalfCol>
            <TextInput
              label={t('sell.fields.language')}
              maxLength={50}
              {...form.getInputProps('language')}
            />
          </HalfCol>
          <HalfCol>
            <TextInput
              label={t('sell.fields.location')}
              maxLength={200}
              {...form.getInputProps('location')}
            />
          </HalfCol>
          <HalfCol>
            <MoneyInput
              label={t('sell.fields.shippingCost')}
              allowNegative={false}
              {...form.getInputProps('shippingCost')}
            />
          </HalfCol>
          <Grid.Col span={12}>
            <Checkbox
              label={t('sell.fields.isNegotiable')}
              {...form.getInputProps('isNegotiable', { type: 'checkbox' })}
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <CoverUpload
              value={form.values.coverUrl}
              previewUrl={listing?.coverUrl}
              onChange={(url) => form.setFieldValue('coverUrl', url)}
              onBusyChange={setUploading}
            />
            {typeof form.errors.coverUrl === 'string' && (
              <div role="alert" style={{ color: 'var(--mantine-color-error)', fontSize: 14 }}>
                {form.errors.coverUrl}
              </div>
            )}
          </Grid.Col>
        </Grid>
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
          )}
          <Button type="submit" loading={submitting} disabled={uploading}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
