import { Button, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { StepError } from '../StepError';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import type { Deal } from '@shared/schemas/deals';
import {
  MEETING_NOTE_MAX,
  MEETING_PLACE_MAX,
  meetingProposalSchema,
  meetingTimeProblem,
  type DealMeeting,
} from '@shared/schemas/dealMeeting';
import { useTranslation } from '@web/lib/reactI18n';
import { ApiError } from '../../../lib/api';
import { dealKeys, useDealStep } from '../api';
import { ConfirmDialog, useConfirmStep } from '../../../components/ConfirmDialog';

/** A date and time in the reader's language: "Fri 27 November, 15:30". */
function formatWhen(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** A `datetime-local` value ('2026-11-27T15:30') in the reader's time zone. */
function localInputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

type FormValues = { place: string; at: string; note: string };

/** The request's body from the form, or the fields' locale keys (the server's own rules). */
function toProposal(values: FormValues) {
  const when = values.at ? new Date(values.at) : null;
  const at = when && !Number.isNaN(when.getTime()) ? when.toISOString() : '';
  const parsed = meetingProposalSchema.safeParse({
    place: values.place,
    at,
    ...(values.note.trim() ? { note: values.note } : {}),
  });
  const errors: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  if (at && !errors.at) {
    const problem = meetingTimeProblem(new Date(at), new Date());
    if (problem) errors.at = `deals.meeting.errors.${problem}`;
  }
  return { body: parsed.success ? parsed.data : null, errors };
}

/**
 * Hand to hand inside the deal's card (issue 22 item 2, decision 0075): the meeting as it stands
 * in words, and the steps open to this member — propose (place, date and time, a note), accept
 * the other's proposal or propose another, and confirm the exchange happened (after an agreed
 * meeting's time, or at once without one: decision 0083).
 * The server enforces every rule; this mirrors them.
 */
export function MeetingSteps({ deal }: { deal: Deal }) {
  const { t, i18n } = useTranslation();
  const meeting = deal.meeting;
  const [proposing, setProposing] = useState(false);
  // When the form closes, focus returns to the meeting's state (keyboard users keep their place).
  const stateRef = useRef<HTMLParagraphElement>(null);
  const closeForm = () => {
    setProposing(false);
    requestAnimationFrame(() => stateRef.current?.focus());
  };
  const accept = useDealStep<{ meetingId: string }>(deal.id, 'meeting/accept');
  const confirm = useDealStep(deal.id, 'meeting/confirm');
  const confirmStep = useConfirmStep(confirm);
  useRefetchAtTime(deal.id, meeting);
  if (!meeting) return null;

  const side = deal.role === 'seller' ? 'seller' : 'buyer';
  const otherName = deal.role === 'seller' ? deal.buyer.displayName : deal.seller.displayName;
  const current = meeting.current;
  const when = current ? formatWhen(current.at, i18n.language) : '';
  const isMember = deal.role !== 'admin';
  const open = deal.status === 'open' && isMember;
  const iConfirmed = isMember && meeting.confirmed[side] !== null;
  const theyConfirmed = meeting.confirmed[side === 'buyer' ? 'seller' : 'buyer'] !== null;
  const anyConfirmed = iConfirmed || theyConfirmed;
  const mine = current?.proposedBy === side;
  // The server's rule (decision 0083): an agreed meeting holds the confirmation until its time;
  // without one (arranged in the chat, or met already) either side may confirm at once.
  const canConfirm = !iConfirmed && (current?.status !== 'accepted' || meeting.due);

  let state: string;
  if (deal.status === 'completed' && meeting.confirmed.buyer && meeting.confirmed.seller)
    state = t('deals.meeting.completed');
  else if (!current) state = t('deals.meeting.none');
  else if (current.status === 'accepted')
    state = t('deals.meeting.accepted', { place: current.place, time: when });
  else if (mine)
    state = t('deals.meeting.proposedByMe', {
      place: current.place,
      time: when,
      name: otherName,
    });
  else
    state = t('deals.meeting.proposedByThem', {
      place: current.place,
      time: when,
      name: otherName,
    });

  return (
    <Stack gap={6} data-testid="meeting-steps" role="group" aria-label={t('deals.meeting.title')}>
      <Text size="sm" data-testid="meeting-state" ref={stateRef} tabIndex={-1}>
        {state}
      </Text>
      {current?.note && <Text size="xs">{t('deals.meeting.note', { note: current.note })}</Text>}
      {open && current?.status !== 'accepted' && !anyConfirmed && (
        <Text size="xs" c="dimmed">
          {t('deals.meeting.noneConfirm')}
        </Text>
      )}
      {deal.status === 'open' && current?.status === 'accepted' && !anyConfirmed && (
        <Text size="xs" c="dimmed">
          {meeting.due ? t('deals.meeting.due') : t('deals.meeting.afterTime')}
        </Text>
      )}
      {deal.status === 'open' && iConfirmed && (
        <Text size="xs" data-testid="meeting-confirmed">
          {t('deals.meeting.youConfirmed', { name: otherName })}
        </Text>
      )}
      {deal.status === 'open' && theyConfirmed && (
        <Text size="xs" data-testid="meeting-confirmed">
          {t('deals.meeting.theyConfirmed', { name: otherName })}
        </Text>
      )}
      {open && !proposing && (
        <Group gap="xs">
          {current?.status === 'open' && !mine && !anyConfirmed && (
            <Button
              size="compact-sm"
              loading={accept.isPending}
              onClick={() => accept.mutate({ meetingId: current.id })}
            >
              {t('deals.meeting.accept')}
            </Button>
          )}
          {canConfirm && (
            <Button size="compact-sm" onClick={confirmStep.ask}>
              {t('deals.meeting.confirm')}
            </Button>
          )}
          {!anyConfirmed && (
            <Button
              size="compact-sm"
              variant={current ? 'default' : 'filled'}
              onClick={() => setProposing(true)}
            >
              {current ? t('deals.meeting.proposeAnother') : t('deals.meeting.propose')}
            </Button>
          )}
        </Group>
      )}
      {open && proposing && <ProposalForm deal={deal} onDone={closeForm} />}
      <StepError error={accept.error} />
      {/* Irreversible, as the other deal steps that cannot be undone: asked first. */}
      <ConfirmDialog
        {...confirmStep.dialog}
        title={t('deals.meeting.confirmDialog.title')}
        confirmLabel={t('deals.meeting.confirmDialog.confirm')}
        cancelLabel={t('deals.meeting.confirmDialog.keep')}
        color="teal.9"
      >
        {theyConfirmed
          ? t('deals.meeting.confirmDialog.last')
          : t('deals.meeting.confirmDialog.first', { name: otherName })}
      </ConfirmDialog>
    </Stack>
  );
}

/** When the accepted time comes, the deal is read again: the confirmation opens by itself. */
function useRefetchAtTime(dealId: string, meeting: DealMeeting | null) {
  const client = useQueryClient();
  const at = meeting?.current?.status === 'accepted' && !meeting.due ? meeting.current.at : null;
  useEffect(() => {
    if (!at) return;
    const wait = Date.parse(at) - Date.now() + 1000;
    // setTimeout holds at most ~24.8 days; a later meeting is read again on the next visit.
    if (wait > 2 ** 31 - 1) return;
    const timer = setTimeout(
      () => void client.invalidateQueries({ queryKey: dealKeys.one(dealId) }),
      Math.max(wait, 0),
    );
    return () => clearTimeout(timer);
  }, [at, client, dealId]);
}

function ProposalForm({ deal, onDone }: { deal: Deal; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const propose = useDealStep<{ place: string; at: string; note?: string }>(deal.id, 'meeting');
  const formId = useId();
  const form = useForm<FormValues>({
    initialValues: { place: '', at: '', note: '' },
    validate: (values) => toProposal(values).errors,
  });
  // Client errors are locale keys; the server's arrive translated.
  const message = (e: unknown) => {
    if (!e) return undefined;
    const text = String(e);
    return i18n.exists(text) ? t(text) : text;
  };
  const input = (field: keyof FormValues) => {
    const props = form.getInputProps(field);
    return { ...props, id: `${formId}-${field}`, error: message(props.error) };
  };
  const submit = (values: FormValues) => {
    const { body } = toProposal(values);
    if (!body) return;
    propose.mutate(body, {
      onSuccess: onDone,
      onError: (err) => {
        if (err instanceof ApiError && err.fields) form.setErrors(err.fields);
      },
    });
  };
  return (
    <form
      noValidate
      aria-label={t('deals.meeting.form.label')}
      // Mantine's default error red is 3.6:1 on white; this one reads at 5.4:1 (WCAG AA).
      style={{ '--mantine-color-error': 'var(--mantine-color-red-9)' } as CSSProperties}
      onSubmit={form.onSubmit(submit, (errors) => {
        const first = (['place', 'at', 'note'] as const).find((f) => errors[f]);
        if (first) document.getElementById(`${formId}-${first}`)?.focus();
      })}
    >
      <Stack gap="xs">
        <TextInput
          {...input('place')}
          label={t('deals.meeting.form.place')}
          placeholder={t('deals.meeting.form.placePlaceholder')}
          maxLength={MEETING_PLACE_MAX}
          required
          data-autofocus
          autoFocus
        />
        <TextInput
          {...input('at')}
          type="datetime-local"
          label={t('deals.meeting.form.at')}
          min={localInputValue(new Date())}
          required
        />
        <Textarea
          {...input('note')}
          label={t('deals.meeting.form.note')}
          maxLength={MEETING_NOTE_MAX}
          autosize
          minRows={1}
          maxRows={4}
        />
        <StepError error={propose.error} />
        <Group gap="xs">
          <Button type="submit" size="compact-sm" loading={propose.isPending}>
            {t('deals.meeting.form.send')}
          </Button>
          <Button size="compact-sm" variant="default" onClick={onDone}>
            {t('deals.meeting.form.back')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
