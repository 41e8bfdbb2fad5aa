import {
  NativeSelect,
  NumberInput,
  Textarea,
  type NativeSelectProps,
  type NumberInputProps,
  type TextareaProps,
} from '@mantine/core';

/** An amount of money: not below 0, in cents (two decimals). The form passes the rest. */
export function MoneyInput(props: NumberInputProps) {
  return <NumberInput min={0} step={0.01} decimalScale={2} {...props} />;
}

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
