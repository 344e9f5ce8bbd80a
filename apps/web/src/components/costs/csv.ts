/** One CSV field: quoted when it holds a comma, quote or line break (RFC 4180). */
function field(value: string | number): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text from a header row and data rows. */
export function toCsv(header: string[], rows: Array<Array<string | number>>): string {
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n').concat('\r\n');
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
