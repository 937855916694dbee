import { useMemo } from 'react';
import { formatAmountInput, formatMoney } from '../../../shared/money';
import { fieldDigits, readAmountField, type AmountFieldRules } from '../../lib/amountField';
import { useHomeCurrency } from '../../lib/currency';
import { browserLocale } from '../../lib/locale';

/**
 * The plan's amounts are in the home currency (the server converts every account's rows into it):
 * shown, typed and read in its symbol and decimals.
 */
export function usePlanMoney() {
  const currency = useHomeCurrency();
  return useMemo(() => {
    const locale = browserLocale();
    return {
      currency,
      /** "$1,234.56", "−¥500". */
      show: (cents: number) => formatMoney(cents, { currency }),
      /** What an amount field holds: "1,234.56". */
      input: (cents: number) => formatAmountInput(cents, locale, fieldDigits(currency)),
      read: (text: string, rules: AmountFieldRules = {}) => readAmountField(text, locale, { ...rules, currency }),
    };
  }, [currency]);
}
