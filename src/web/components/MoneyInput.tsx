import { TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useRef, useState, type ChangeEvent, type FocusEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoneyInput, parseMoney } from '@shared/money';

/** What a money box gives its form: a number, '' when empty, or the text when it is no amount. */
export type MoneyValue = number | string;

export type MoneyInputProps = Omit<TextInputProps, 'value' | 'onChange' | 'defaultValue'> & {
  value?: MoneyValue | null;
  onChange?: (value: MoneyValue) => void;
};

/** The box's text stands for this value (so a value coming back from the form keeps the text). */
function sameAmount(text: string, value: MoneyValue | null | undefined, language: string): boolean {
  const parsed = parseMoney(text, language);
  if (value === '' || value === null || value === undefined) return parsed === null;
  if (typeof value === 'number') return parsed === value;
  return text === value || parsed === Number(value);
}

/**
 * Every amount of money a member types (prices, shipping, offers, bundle discounts, ad budgets):
 * nothing pre-filled, the reader's decimal separator ("8,90" in Italian, "8.90" in English),
 * either separator understood however it arrives (typed, pasted, autofilled: shared parseMoney),
 * and the amount written back the reader's way when the box is left. The form gets a number, ''
 * when empty, or the text itself when it is not an amount (its schema then says why).
 */
export function MoneyInput({ value, onChange, onBlur, onFocus, ...props }: MoneyInputProps) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const [text, setText] = useState(() => formatMoneyInput(value ?? '', language));
  const focused = useRef(false);

  // A value set from outside (a form reset, a listing loaded, the language changed): shown anew,
  // unless the box already says it (so typing "6," is not rewritten under the fingers).
  useEffect(() => {
    setText((current) =>
      focused.current && sameAmount(current, value, language)
        ? current
        : formatMoneyInput(value ?? '', language),
    );
  }, [value, language]);

  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const next = event.currentTarget.value;
    setText(next);
    const parsed = parseMoney(next, language);
    onChange?.(parsed === null ? '' : Number.isNaN(parsed) ? next : parsed);
  };
  const blur = (event: FocusEvent<HTMLInputElement>) => {
    focused.current = false;
    const parsed = parseMoney(text, language);
    if (parsed !== null && !Number.isNaN(parsed)) setText(formatMoneyInput(parsed, language));
    onBlur?.(event);
  };
  const focus = (event: FocusEvent<HTMLInputElement>) => {
    focused.current = true;
    onFocus?.(event);
  };
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      {...props}
      value={text}
      onChange={change}
      onBlur={blur}
      onFocus={focus}
    />
  );
}
