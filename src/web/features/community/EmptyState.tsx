import { Stack, Text, Title } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';

export function EmptyState({ title, text }: { title: string; text: string }) {
  return (
    <Stack align="center" py="lg" gap="xs" ta="center">
      <IconMessages size={48} stroke={1.2} aria-hidden />
      <Title order={3} fz="lg">
        {title}
      </Title>
      <Text c="dimmed">{text}</Text>
    </Stack>
  );
}
