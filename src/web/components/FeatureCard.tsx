import { Card, Text, ThemeIcon, Title } from '@mantine/core';
import type { ComponentType } from 'react';

/** An icon, a title and a line of text in a bordered card (home features, about values). */
export function FeatureCard({
  Icon,
  title,
  text,
}: {
  Icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  title: string;
  text: string;
}) {
  return (
    <Card withBorder padding="lg">
      <ThemeIcon size={48} radius="md" variant="light">
        <Icon size={28} aria-hidden />
      </ThemeIcon>
      <Title order={3} mt="md" fz="lg">
        {title}
      </Title>
      <Text c="dimmed" mt="xs">
        {text}
      </Text>
    </Card>
  );
}
