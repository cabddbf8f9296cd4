/** An e-mail ready to send: both parts are always present (spec: HTML and plain text). */
export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What every template needs to know about the company sending it. */
export interface Brand {
  companyName: string;
  /** Absolute base URL of the product; every link in an e-mail starts with it. */
  baseUrl: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Wraps a template's paragraphs in the company's simple HTML frame. */
export function htmlFrame(brand: Brand, title: string, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${p}</p>`).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:560px;margin:0 auto;padding:24px">
<h2 style="margin:0 0 24px">${escapeHtml(brand.companyName)}</h2>
${body}
<p style="margin:32px 0 0;color:#777;font-size:12px">${escapeHtml(brand.companyName)} · <a href="${escapeHtml(brand.baseUrl)}">${escapeHtml(brand.baseUrl)}</a></p>
</body></html>`;
}
