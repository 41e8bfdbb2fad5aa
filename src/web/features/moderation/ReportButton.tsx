import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFlag } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';
import type { ReportTarget } from './ReportDialog';
import { kindName } from './kinds';

// The dialog (a modal, radios, the reasons' list with its zod schemas) is fetched when the
// button is first approached or pressed, never with the page that shows the button.
const loadDialog = () => import('./ReportDialog');
const ReportDialog = lazy(() => loadDialog().then((m) => ({ default: m.ReportDialog })));

/**
 * A small "Report" button (listing pages, profiles). Hidden from the item's own author: nobody
 * reports their own content.
 */
export function ReportButton({ kind, id, ownerId }: ReportTarget & { ownerId?: string | null }) {
  const { t } = useTranslation();
  const session = useSession();
  const [opened, dialog] = useDisclosure(false);
  if (session.status === 'signed-in' && ownerId && session.user.id === ownerId) return null;
  const kindLabel = kindName(t, kind);
  return (
    <>
      <Button
        variant="default"
        size="compact-sm"
        leftSection={<IconFlag size={14} aria-hidden />}
        onClick={dialog.open}
        onPointerEnter={loadDialog}
        onFocus={loadDialog}
        onTouchStart={loadDialog}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('moderation.report.actionOf', { kind: kindLabel, context: kind })}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <ReportDialog opened={opened} onClose={dialog.close} kind={kind} id={id} />
        </Suspense>
      )}
    </>
  );
}
