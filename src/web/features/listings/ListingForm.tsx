import { Checkbox, Grid, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  CONDITIONS,
  CURRENCIES,
  FORM_GENRES,
  MARKET_GENRES,
  LISTING_TYPES,
  listingEditWithoutDescriptionSchema,
  listingFormSchema,
  type CatalogueBook,
  type Genre,
  type ListingDetail,
  type ListingForm as ListingFormOutput,
} from '@shared/marketplace';
import { bookLanguageName } from '@shared/bookLanguage';
import { genreFromCategories } from '@shared/catalogueGenre';
import {
  CurrencySelect,
  DescriptionInput,
  HalfCol,
  IsbnInput,
  MoneyInput,
} from '../../components/formFields';
import { CatalogueSearch } from '../catalogue';
import { CoverUpload } from '../../components/CoverUpload';
import { GenreSelect } from '../../components/GenreSelect';
import { FormActions } from '../../components/FormActions';
import { translatedResolver, useServerSubmit } from './useZodForm';
import { usePriceCheck } from './usePriceCheck';
import { EMPTY, valuesFromListing, type ListingFormValues } from './formValues';

/**
 * The full listing form: validated with the shared schema (messages translated), server field
 * errors shown beside their fields. `onSubmit` receives the parsed values. Editing a listing that
 * has no description (a quick one) does not ask for one.
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
  const descriptionRequired = !listing || !!listing.description;
  const schema = descriptionRequired ? listingFormSchema : listingEditWithoutDescriptionSchema;
  const form = useForm<ListingFormValues>({
    mode: 'controlled',
    initialValues: listing ? valuesFromListing(listing) : EMPTY,
    validate: translatedResolver(schema, t) as never,
  });
  const type = form.values.listingType;
  const priceRequired = type !== 'trade';

  const genres: Genre[] = [...FORM_GENRES];
  // A listing may carry a marketplace-only genre (textbook, comics): keep it selectable.
  const marketOnly = MARKET_GENRES.find((g) => g === form.values.genre && !genres.includes(g));
  if (marketOnly) genres.push(marketOnly);

  const fillFromCatalogue = (book: CatalogueBook) => {
    // The catalogue's genre, unless one was chosen already or the catalogue has none.
    const genre = genreFromCategories(book.categories);
    form.setValues({
      title: book.title,
      author: book.author,
      ...(!form.values.genre && genre !== 'other' ? { genre } : {}),
      ...(book.isbn ? { isbn: book.isbn } : {}),
      // By name ("Italiano"), as members write it here: the catalogue gives a code ('it').
      ...(book.language && !form.values.language
        ? { language: bookLanguageName(book.language) ?? '' }
        : {}),
    });
  };

  const { submitting, submitParsed } = useServerSubmit(form, onSubmit);
  const priceCheck = usePriceCheck();
  const submit = form.onSubmit((values) => {
    const parsed = schema.safeParse(values);
    if (!parsed.success) return;
    const { price, currency } = parsed.data;
    // An edit that keeps the price it had is not asked about again.
    const asked = price === (listing?.price ?? null) ? null : price;
    priceCheck.check(asked, currency, () => submitParsed(parsed.data));
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
            <GenreSelect
              label={t('sell.fields.genre')}
              withAsterisk
              genres={genres}
              empty={t('sell.fields.genrePlaceholder')}
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
              withAsterisk={descriptionRequired}
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
        {priceCheck.dialog}
        <FormActions
          cancelLabel={t('common.cancel')}
          submitLabel={submitLabel}
          onCancel={onCancel}
          loading={submitting}
          disabled={uploading}
        />
      </Stack>
    </form>
  );
}
