import { ActionIcon, Menu } from '@mantine/core';
import { IconDots, IconPencil, IconTrash } from '@tabler/icons-react';

/**
 * The "…" menu of one's own message or comment: edit, then delete (in red). `label` names the
 * button; the icons are `iconSize` px; `color` is the button's.
 */
export function OwnerMenu({
  label,
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
  iconSize,
  color,
  initialFocusPlaceholder,
}: {
  label: string;
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
  iconSize: number;
  color: string;
  /** Mantine's focus placeholder in the dropdown (on unless false). */
  initialFocusPlaceholder?: boolean;
}) {
  return (
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={initialFocusPlaceholder}>
      <Menu.Target>
        <ActionIcon variant="subtle" size="sm" color={color} aria-label={label}>
          <IconDots size={iconSize} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={iconSize} aria-hidden />} onClick={onEdit}>
          {editLabel}
        </Menu.Item>
        <Menu.Item
          color="red.9"
          leftSection={<IconTrash size={iconSize} aria-hidden />}
          onClick={onDelete}
        >
          {deleteLabel}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
