import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of the sign-in, sign-up and password screens. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container size={460} py={{ base: 32, sm: 56 }} px="md">
      <Paper withBorder radius="md" p={{ base: 'lg', sm: 'xl' }} shadow="xs">
        <Stack gap="lg">
          <Stack gap={4} ta="center">
            <Title order={1} fz={{ base: 26, sm: 30 }}>
              {title}
            </Title>
            {subtitle && <Text c="dimmed">{subtitle}</Text>}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}
