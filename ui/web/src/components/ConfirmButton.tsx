import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Text, type ButtonProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A destructive action that asks first. */
export function ConfirmButton({ message, onConfirm, children, ...button }: ButtonProps & { message: string; onConfirm(): void; children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button color="red" variant="light" size="xs" {...button} onClick={(e) => { e.stopPropagation(); setOpen(true); }}>{children}</Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('common.confirmTitle')} centered>
        <Text mb="md">{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpen(false)}>{t('common.cancel')}</Button>
          <Button color="red" onClick={() => { setOpen(false); onConfirm(); }}>{children}</Button>
        </Group>
      </Modal>
    </>
  );
}
