import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ADDRESSES_MAX } from '@shared/schemas/dealPost';
import { notify } from '../../../lib/notify';
import { useAddresses, useDeleteAddress, useSaveAddress } from './api';
import { AddressForm, AddressLines } from './AddressForm';
import { SectionCard } from '../../../components/SectionCard';

/** Settings: my saved shipping addresses (at most ADDRESSES_MAX), to pick when buying by post. */
export function AddressesSection() {
  const { t } = useTranslation();
  const list = useAddresses();
  const save = useSaveAddress();
  const remove = useDeleteAddress();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const items = list.data ?? [];

  return (
    <SectionCard id="settings-addresses" title={t('deals.post.address.settingsTitle')}>
      <Text size="sm" c="dimmed">
        {t('deals.post.address.settingsHint', { max: ADDRESSES_MAX })}
      </Text>
      {list.isSuccess && items.length === 0 && (
        <Text size="sm">{t('deals.post.address.none')}</Text>
      )}
      <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {items.map((a) => (
          <Paper component="li" key={a.id} withBorder p="sm" data-testid="saved-address">
            {editing === a.id ? (
              <AddressForm
                initial={a}
                submitLabel={t('deals.post.address.save')}
                busy={save.isPending}
                onCancel={() => setEditing(null)}
                onSubmit={async (address) => {
                  await save.mutateAsync({ id: a.id, address });
                  notify('green', t('deals.post.address.savedToast'));
                  setEditing(null);
                }}
              />
            ) : (
              <Group justify="space-between" align="flex-start" wrap="wrap">
                <AddressLines address={a} />
                <Group gap="xs">
                  <Button
                    size="compact-sm"
                    variant="default"
                    onClick={() => setEditing(a.id)}
                    aria-label={`${t('deals.post.address.edit')}: ${a.name}, ${a.street}`}
                  >
                    {t('deals.post.address.edit')}
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="default"
                    color="red"
                    loading={remove.isPending && remove.variables === a.id}
                    aria-label={`${t('deals.post.address.delete')}: ${a.name}, ${a.street}`}
                    onClick={() =>
                      remove.mutate(a.id, {
                        onSuccess: () => notify('green', t('deals.post.address.deleted')),
                        onError: (err) => notify('red', err.message),
                      })
                    }
                  >
                    {t('deals.post.address.delete')}
                  </Button>
                </Group>
              </Group>
            )}
          </Paper>
        ))}
      </Stack>
      {editing === 'new' ? (
        <AddressForm
          submitLabel={t('deals.post.address.save')}
          busy={save.isPending}
          onCancel={() => setEditing(null)}
          onSubmit={async (address) => {
            await save.mutateAsync({ address });
            notify('green', t('deals.post.address.savedToast'));
            setEditing(null);
          }}
        />
      ) : (
        items.length < ADDRESSES_MAX && (
          <Group>
            <Button variant="default" onClick={() => setEditing('new')}>
              {t('deals.post.address.add')}
            </Button>
          </Group>
        )
      )}
    </SectionCard>
  );
}
