import { createContext, useContext } from 'react';

/** The currency the reports' figures are in (the home currency, as the server's answer names it). */
export const ReportCurrency = createContext<string | null>(null);

export function useReportCurrency(): string | null {
  return useContext(ReportCurrency);
}
