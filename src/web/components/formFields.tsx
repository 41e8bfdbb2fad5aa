import {
  NativeSelect,
  NumberInput,
  type NativeSelectProps,
  type NumberInputProps,
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
