import { ActionIcon, Menu } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDots, IconFlag } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import type { ReportTarget } from './ReportDialog';
import { kindName } from './kinds';

// The dialog (a modal, radios, the reasons with their zod schemas) is fetched when the menu is
// first opened, never with the list that shows the menu: the library's sponsored card brought
// it, and zod's schemas built on the main thread, to every /library load (issue 25).
const loadDialog = () => import('./ReportDialog');
const ReportDialog = lazy(() => loadDialog().then((m) => ({ default: m.ReportDialog })));

/** A "…" menu with a Report item, for items in a list (chat messages, posts, comments, ads). */
export function ReportMenu({ kind, id, label }: ReportTarget & { label?: string }) {
  const { t } = useTranslation();
  const [opened, dialog] = useDisclosure(false);
  const kindLabel = kindName(t, kind);
  return (
    <>
      <Menu
        position="bottom-end"
        withinPortal
        withInitialFocusPlaceholder={false}
        onOpen={loadDialog}
      >
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            size="sm"
            color="gray"
            aria-label={
              label ?? t('moderation.report.actionOf', { kind: kindLabel, context: kind })
            }
          >
            <IconDots size={14} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconFlag size={14} aria-hidden />} onClick={dialog.open}>
            {t('moderation.report.action')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {opened && (
        <Suspense fallback={null}>
          <ReportDialog opened={opened} onClose={dialog.close} kind={kind} id={id} />
        </Suspense>
      )}
    </>
  );
}
