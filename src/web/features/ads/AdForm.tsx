import {
  Alert,
  Fieldset,
  Grid,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  AD_CURRENCIES,
  AD_DESCRIPTION_MAX,
  AD_GENRES,
  AD_LANGUAGES,
  AD_MIN_YEAR,
  AD_PURCHASE_STORES,
  AD_SUBTITLE_MAX,
  AD_TITLE_MAX,
  AD_TYPES,
  adMaxYear,
  type AdCreateInput,
  type AdLanguage,
  type AdPurchaseStore,
  type Advertisement,
} from '@shared/schemas/ads';
import {
  CurrencySelect,
  DescriptionInput,
  HalfCol,
  IsbnInput,
  MoneyInput,
} from '../../components/formFields';
import { ApiError } from '../../lib/api';
import { CoverUpload } from '../../components/CoverUpload';
import { GenreSelect } from '../../components/GenreSelect';
import { FormActions } from '../../components/FormActions';
import { adErrorMessage } from './errors';
import {
  changedFields,
  emptyAdValues,
  toInput,
  validateAd,
  valuesFromAd,
  type AdFormValues,
} from './formValues';
import type { LocaleKey } from '../../lib/translator';

const STORE_KEYS: Record<AdPurchaseStore, LocaleKey> = {
  amazon: 'ads.form.stores.amazon',
  bookshop: 'ads.form.stores.bookshop',
  barnes_noble: 'ads.form.stores.barnes_noble',
  author_website: 'ads.form.stores.author_website',
};

/**
 * Every field and rule of an advertisement, validated with the shared schema (the server's own
 * rules), each message once under its field; the server's field errors land in the same places.
 */
export function AdForm({
  ad,
  language,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  ad?: Advertisement;
  /** Create mode: the book's language to start with (the author's own). */
  language?: AdLanguage;
  submitLabel: string;
  onSubmit: (body: AdCreateInput) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [initial] = useState(() => (ad ? valuesFromAd(ad) : emptyAdValues(new Date(), language)));
  const [uploading, setUploading] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AdFormValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: (values) => validateAd(values, t),
  });
  const maxYear = adMaxYear();

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setSubmitting(true);
    try {
      const body = ad ? changedFields(values, initial) : values;
      await onSubmit(toInput(body as AdFormValues));
    } catch (err) {
      if (err instanceof ApiError && err.fields && Object.keys(err.fields).length) {
        form.setErrors(err.fields);
      } else setFailure(adErrorMessage(err, 'save', t));
    } finally {
      setSubmitting(false);
    }
  });

  const money = (field: 'bookPrice' | 'dailyBudget' | 'totalBudget', label: string) => (
    <MoneyInput label={label} {...form.getInputProps(field)} />
  );
  const url = (field: string, label: string) => (
    <TextInput type="url" label={label} placeholder="https://" {...form.getInputProps(field)} />
  );

  return (
    <form onSubmit={submit} noValidate aria-label={t('ads.form.label')}>
      <Stack gap="md">
        {failure && (
          <Alert
            color="red"
            role="alert"
            withCloseButton
            closeButtonLabel={t('ads.list.dismiss')}
            onClose={() => setFailure(null)}
            styles={{ message: { color: 'var(--mantine-color-error)' } }}
          >
            {failure}
          </Alert>
        )}
        <Fieldset bg="var(--mantine-color-body)" legend={t('ads.form.sections.book')}>
          <Grid gutter="md">
            <HalfCol>
              <TextInput
                label={t('ads.form.title')}
                withAsterisk
                maxLength={AD_TITLE_MAX}
                {...form.getInputProps('title')}
              />
            </HalfCol>
            <HalfCol>
              <TextInput
                label={t('ads.form.subtitle')}
                maxLength={AD_SUBTITLE_MAX}
                {...form.getInputProps('subtitle')}
              />
            </HalfCol>
            <Grid.Col span={12}>
              <DescriptionInput
                label={t('ads.form.description')}
                maxLength={AD_DESCRIPTION_MAX}
                {...form.getInputProps('description')}
              />
            </Grid.Col>
            <HalfCol>
              <GenreSelect
                label={t('ads.form.genre')}
                withAsterisk
                genres={AD_GENRES}
                empty={t('ads.form.genrePlaceholder')}
                {...form.getInputProps('genre')}
              />
            </HalfCol>
            <HalfCol>
              <NativeSelect
                label={t('ads.form.language')}
                data={AD_LANGUAGES.map((l) => ({ value: l, label: t(`ads.languages.${l}`) }))}
                {...form.getInputProps('language')}
              />
            </HalfCol>
            <HalfCol>
              <IsbnInput
                label={t('ads.form.isbn13')}
                description={t('ads.form.isbnHint')}
                {...form.getInputProps('isbn13')}
              />
            </HalfCol>
            <HalfCol>
              <TextInput
                label={t('ads.form.publisher')}
                maxLength={200}
                {...form.getInputProps('publisher')}
              />
            </HalfCol>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <NumberInput
                label={t('ads.form.publicationYear')}
                description={t('ads.form.yearHint', { min: AD_MIN_YEAR, max: maxYear })}
                min={AD_MIN_YEAR}
                max={maxYear}
                allowDecimal={false}
                clampBehavior="none"
                thousandSeparator={false}
                {...form.getInputProps('publicationYear')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <NumberInput
                label={t('ads.form.pageCount')}
                min={1}
                allowDecimal={false}
                clampBehavior="none"
                {...form.getInputProps('pageCount')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 7, sm: 3 }}>
              {money('bookPrice', t('ads.form.bookPrice'))}
            </Grid.Col>
            <Grid.Col span={{ base: 5, sm: 3 }}>
              <CurrencySelect
                label={t('ads.form.currency')}
                currencies={AD_CURRENCIES}
                {...form.getInputProps('currency')}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <CoverUpload
                label={t('ads.form.cover')}
                value={form.values.coverImageUrl}
                title={form.values.title}
                onChange={(url) => form.setFieldValue('coverImageUrl', url)}
                onBusyChange={setUploading}
                error={
                  typeof form.errors.coverImageUrl === 'string' ? form.errors.coverImageUrl : null
                }
              />
            </Grid.Col>
          </Grid>
        </Fieldset>

        <Fieldset bg="var(--mantine-color-body)" legend={t('ads.form.sections.promotion')}>
          <Grid gutter="md">
            <HalfCol>
              <NativeSelect
                label={t('ads.form.adType')}
                withAsterisk
                data={AD_TYPES.map((a) => ({ value: a, label: t(`ads.types.${a}`) }))}
                {...form.getInputProps('adType')}
              />
            </HalfCol>
            <HalfCol>
              <TextInput
                label={t('ads.form.keywords')}
                description={t('ads.form.listHint')}
                {...form.getInputProps('keywords')}
              />
            </HalfCol>
            <HalfCol>
              <TextInput
                label={t('ads.form.targetAudience')}
                description={t('ads.form.listHint')}
                {...form.getInputProps('targetAudience')}
              />
            </HalfCol>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <TextInput
                type="date"
                label={t('ads.form.startDate')}
                {...form.getInputProps('startDate')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <TextInput
                type="date"
                label={t('ads.form.endDate')}
                {...form.getInputProps('endDate')}
              />
            </Grid.Col>
            <HalfCol>{money('dailyBudget', t('ads.form.dailyBudget'))}</HalfCol>
            <HalfCol>{money('totalBudget', t('ads.form.totalBudget'))}</HalfCol>
            <Grid.Col span={12}>
              <Text size="sm" c="gray.7">
                {t('ads.form.budgetHint')}
              </Text>
            </Grid.Col>
          </Grid>
        </Fieldset>

        <Fieldset bg="var(--mantine-color-body)" legend={t('ads.form.sections.links')}>
          <Grid gutter="md">
            {AD_PURCHASE_STORES.map((store) => (
              <Grid.Col key={store} span={{ base: 12, sm: 6 }}>
                {url(`purchaseLinks.${store}`, t(STORE_KEYS[store]))}
              </Grid.Col>
            ))}
            <HalfCol>{url('sampleChapterUrl', t('ads.form.sampleChapterUrl'))}</HalfCol>
            <HalfCol>{url('trailerVideoUrl', t('ads.form.trailerVideoUrl'))}</HalfCol>
            <HalfCol>{url('authorWebsiteUrl', t('ads.form.authorWebsiteUrl'))}</HalfCol>
            <HalfCol>
              <TextInput
                label={t('ads.form.socialLinks')}
                description={t('ads.form.listHint')}
                {...form.getInputProps('socialLinks')}
              />
            </HalfCol>
          </Grid>
        </Fieldset>

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
