import { Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowsExchange, IconForms, IconTag } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import type { ListingDetail } from '@shared/marketplace';
import { MOBILE_MAX_WIDTH } from '@shared/constants';
import { useCreateListing } from './api';
import { notifyError, notifySuccess } from './errors';
import { ListingForm } from './ListingForm';
import { QuickSellForm } from './QuickSellForm';
import { QuickTradeForm } from './QuickTradeForm';
import classes from './AddBookModal.module.css';

export type AddBookStep = 'choose' | 'quickTrade' | 'quickSell' | 'full';

const CHOICES = [
  { step: 'quickTrade', Icon: IconArrowsExchange },
  { step: 'quickSell', Icon: IconTag },
  { step: 'full', Icon: IconForms },
] as const;

/** Add book: a chooser (quick trade, quick sell, full form), then the chosen form. */
export function AddBookModal({
  step,
  onStepChange,
  onClose,
  onCreated,
}: {
  /** null = closed */
  step: AddBookStep | null;
  onStepChange: (step: AddBookStep) => void;
  onClose: () => void;
  onCreated?: (listing: ListingDetail) => void;
}) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_MAX_WIDTH}px)`, false);
  const create = useCreateListing();

  const done = (listing: ListingDetail) => {
    notifySuccess(t('sell.added', { title: listing.title }));
    onClose();
    onCreated?.(listing);
  };
  const run = async (body: Parameters<typeof create.mutateAsync>[0]) => {
    try {
      done(await create.mutateAsync(body));
    } catch (err) {
      notifyError(err, 'add', t);
      throw err;
    }
  };
  const back = () => onStepChange('choose');

  return (
    <Modal
      opened={step !== null}
      onClose={onClose}
      title={step ? t(`sell.chooser.titles.${step}`) : ''}
      size={step === 'full' ? 'xl' : 'lg'}
      fullScreen={isMobile && step === 'full'}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {step === 'choose' && (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('sell.chooser.intro')}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
            {CHOICES.map(({ step: s, Icon }) => (
              <UnstyledButton key={s} className={classes.choice} onClick={() => onStepChange(s)}>
                <Icon size={28} aria-hidden />
                <Text fw={600} mt={4}>
                  {t(`sell.chooser.${s}`)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`sell.chooser.${s}Hint`)}
                </Text>
              </UnstyledButton>
            ))}
          </SimpleGrid>
        </Stack>
      )}
      {step === 'quickTrade' && (
        <QuickTradeForm onCancel={back} onSubmit={(v) => run({ mode: 'quickTrade', ...v })} />
      )}
      {step === 'quickSell' && (
        <QuickSellForm onCancel={back} onSubmit={(v) => run({ mode: 'quickSell', ...v })} />
      )}
      {step === 'full' && (
        <ListingForm
          submitLabel={t('sell.submit')}
          onCancel={back}
          onSubmit={(v) => run({ mode: 'full', ...v })}
        />
      )}
    </Modal>
  );
}
