import Papa from 'papaparse';

/**
 * CSV text (RFC 4180, CRLF rows) from a header row and data rows, by Papa Parse: fields holding a
 * comma, quote or line break are quoted, and text starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return is prefixed with `'` so a spreadsheet shows it instead of running it as a
 * formula (CSV injection: agent, endpoint and run names are typed by users). Numbers stay numbers.
 */
export function toCsv(header: string[], rows: Array<Array<string | number>>): string {
  return Papa.unparse({ fields: header, data: rows }, { escapeFormulae: true, newline: '\r\n' }).concat('\r\n');
}

/** Offers `text` as a file download (the data is already in the page: nothing goes to a server). */
export function downloadCsv(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}

/** Micro-dollars as dollars for people: $0.0012, $1.50, $1,234. */
export function formatUsd(micros: number): string {
  const dollars = micros / 1_000_000;
  if (dollars !== 0 && Math.abs(dollars) < 0.01) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
