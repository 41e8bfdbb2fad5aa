import { Alert, Button, Loader, NativeSelect, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconSend } from '@tabler/icons-react';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useEffect, useRef, type CSSProperties } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { CONTACT_SUBJECTS, type ContactSubject } from '@shared/constants';
import { contactMessageSchema, type ContactMessageInput } from '@shared/schemas/contact';
import { ApiError } from '../../lib/api';
import { useSendContactMessage } from './useSendContactMessage';

// A type alias (not an interface) so it fits the resolver's Record<string, unknown>.
type ContactFormValues = {
  name: string;
  email: string;
  subject: ContactSubject | '';
  message: string;
};

const FIELDS = ['name', 'email', 'subject', 'message'] as const;
const blank: ContactFormValues = { name: '', email: '', subject: '', message: '' };
const fieldId = (field: string) => `contact-${field}`;

/** The contact form: validates with the shared schema, then sends; keeps the text on failure. */
export function ContactForm({
  onSent,
  autoFocus,
}: {
  onSent: (email: string) => void;
  autoFocus?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const send = useSendContactMessage();
  const nameRef = useRef<HTMLInputElement>(null);
  const form = useForm<ContactFormValues>({
    initialValues: blank,
    validate: zod4Resolver(contactMessageSchema),
  });

  useEffect(() => {
    if (autoFocus) nameRef.current?.focus();
  }, [autoFocus]);

  // Client errors are locale keys (re-rendered on a language switch); server errors arrive translated.
  const message = (error: unknown) => {
    if (!error) return undefined;
    const text = String(error);
    return i18n.exists(text) ? t(text) : text;
  };
  const inputProps = (field: (typeof FIELDS)[number]) => {
    const props = form.getInputProps(field);
    return { ...props, id: fieldId(field), error: message(props.error) };
  };

  const focusFirstInvalid = (errors: Record<string, unknown>) => {
    const first = FIELDS.find((f) => errors[f]);
    if (first) document.getElementById(fieldId(first))?.focus();
  };

  const submit = (values: ContactFormValues) => {
    send.mutate(values as ContactMessageInput, {
      onSuccess: () => onSent(values.email.trim()),
      onError: (error) => {
        if (error instanceof ApiError && error.fields) {
          form.setErrors(error.fields);
          focusFirstInvalid(error.fields);
        }
      },
    });
  };

  const serverError = send.error;
  const sending = send.isPending;

  return (
    <form
      noValidate
      aria-busy={sending}
      // Mantine's default error red is 3.6:1 on white; this one reads at 5.4:1 (WCAG AA).
      style={{ '--mantine-color-error': 'var(--mantine-color-red-9)' } as CSSProperties}
      onSubmit={form.onSubmit(submit, (errors) => focusFirstInvalid(errors))}
    >
      <Stack gap="md">
        {serverError && !sending && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={20} aria-hidden />}
            title={t('contact.error.title')}
            styles={{ title: { color: 'var(--mantine-color-red-9)' } }}
          >
            {serverError instanceof ApiError && serverError.fields
              ? t('contact.error.fields')
              : serverError.message}{' '}
            {t('contact.error.kept')}
          </Alert>
        )}
        <TextInput
          {...inputProps('name')}
          ref={nameRef}
          label={t('contact.form.name')}
          placeholder={t('contact.form.namePlaceholder')}
          autoComplete="name"
          required
        />
        <TextInput
          {...inputProps('email')}
          type="email"
          label={t('contact.form.email')}
          placeholder={t('contact.form.emailPlaceholder')}
          autoComplete="email"
          required
        />
        <NativeSelect
          {...inputProps('subject')}
          label={t('contact.form.subject')}
          required
          data={[
            { value: '', label: t('contact.form.subjectPlaceholder'), disabled: true },
            ...CONTACT_SUBJECTS.map((s) => ({ value: s, label: t(`contact.subjects.${s}`) })),
          ]}
        />
        <Textarea
          {...inputProps('message')}
          label={t('contact.form.message')}
          placeholder={t('contact.form.messagePlaceholder')}
          autosize
          minRows={6}
          maxRows={16}
          required
        />
        <Button
          type="submit"
          size="md"
          disabled={sending}
          leftSection={
            sending ? (
              <Loader size={18} color="gray" aria-hidden />
            ) : (
              <IconSend size={18} aria-hidden />
            )
          }
          style={{ alignSelf: 'flex-start' }}
        >
          {sending ? t('contact.form.sending') : t('contact.form.submit')}
        </Button>
      </Stack>
    </form>
  );
}
