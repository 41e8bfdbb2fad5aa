import type { ReactNode } from 'react';
import {
  Grid,
  NativeSelect,
  Textarea,
  TextInput,
  type NativeSelectProps,
  type TextareaProps,
  type TextInputProps,
} from '@mantine/core';

export { MoneyInput, type MoneyInputProps, type MoneyValue } from './MoneyInput';

/** The currency beside a MoneyInput: its codes, as they are (EUR, USD...). */
export function CurrencySelect({
  currencies,
  ...props
}: Omit<NativeSelectProps, 'data'> & { currencies: readonly string[] }) {
  return <NativeSelect data={[...currencies]} {...props} />;
}

/**
 * A book's description, as listings and ads ask for it: required, growing from 3 to 10 rows. The
 * form passes its label, its schema's limit and the rest.
 */
export function DescriptionInput(props: TextareaProps & { maxLength: number }) {
  return <Textarea withAsterisk autosize minRows={3} maxRows={10} {...props} />;
}

/** An ISBN box: digits on a phone's keyboard; the form passes its label, hint and the rest. */
export function IsbnInput(props: TextInputProps) {
  return <TextInput inputMode="numeric" {...props} />;
}

/** A form grid's column: the whole row on a phone, half of it from the sm breakpoint up. */
export function HalfCol({ children }: { children: ReactNode }) {
  return <Grid.Col span={{ base: 12, sm: 6 }}>{children}</Grid.Col>;
}
