/** An e-mail ready to send: both parts are always present (spec: HTML and plain text). */
export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where a reply goes, when not to the sender (a contact-form visitor). */
  replyTo?: string;
  /** Files read from the shared object store when the e-mail is sent (never carried in the job). */
  attachments?: StoredAttachment[];
}

/** A file of the shared object store (S3) attached by its key. */
export interface StoredAttachment {
  filename: string;
  key: string;
  contentType: string;
}

/** What every template needs to know about the company sending it. */
export interface Brand {
  companyName: string;
  /** Absolute base URL of the product; every link in an e-mail starts with it. */
  baseUrl: string;
  /** The shop's IANA time zone: the moments e-mails name (an offer's end) are on its clock. UTC if absent. */
  timeZone?: string;
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

/**
 * A link target an e-mail may carry: an absolute http(s) URL, nothing else (no `javascript:`,
 * `data:` or relative targets, whatever a stored value holds). Null when it is not one.
 */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  if (!/^https?:\/\/[^\s]+$/i.test(trimmed)) return null;
  try {
    const parsed = new URL(trimmed);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? trimmed : null;
  } catch {
    return null;
  }
}

const BUTTON_STYLE =
  'display:inline-block;padding:10px 18px;background:#1f4e79;color:#fff;text-decoration:none;border-radius:4px';

/** `<a href>` around `text` (the URL itself by default), both escaped; plain text if the URL is not http(s). */
export function link(href: string, text = href, style?: string): string {
  const safe = safeHref(href);
  if (!safe) return escapeHtml(text);
  return `<a href="${escapeHtml(safe)}"${style ? ` style="${style}"` : ''}>${escapeHtml(text)}</a>`;
}

/** A link styled as a button, without its paragraph (see `button`). */
export function buttonLink(href: string, label: string): string {
  return link(href, label, BUTTON_STYLE);
}

/** Wraps a template's paragraphs in the company's simple HTML frame. */
export function htmlFrame(brand: Brand, title: string, paragraphs: string[]): string {
  return htmlDocument(brand, title, paragraphs.map(paragraph));
}

/** The company's HTML frame around ready HTML blocks (see `paragraph`, `table`, `button`). */
export function htmlDocument(brand: Brand, title: string, blocks: string[]): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:560px;margin:0 auto;padding:24px">
<h2 style="margin:0 0 24px">${escapeHtml(brand.companyName)}</h2>
${blocks.join('\n')}
<p style="margin:32px 0 0;color:#777;font-size:12px">${escapeHtml(brand.companyName)} · ${link(brand.baseUrl)}</p>
</body></html>`;
}

/** A paragraph of HTML the caller has already escaped. */
export function paragraph(html: string): string {
  return `<p style="margin:0 0 16px">${html}</p>`;
}

/** A heading over a section; `text` is escaped here. */
export function heading(text: string): string {
  return `<h3 style="margin:24px 0 8px;font-size:16px">${escapeHtml(text)}</h3>`;
}

/** A link styled as a button; both values are escaped here (and only an http(s) URL is linked). */
export function button(href: string, label: string): string {
  return `<p style="margin:0 0 16px">${buttonLink(href, label)}</p>`;
}

export interface TableCell {
  text: string;
  /** Numbers line up on the right. */
  align?: 'left' | 'right';
  bold?: boolean;
  /** Columns this cell spans. */
  span?: number;
}

/** A simple bordered table; every cell's text is escaped here, line breaks kept. */
export function table(rows: Array<Array<TableCell | string>>, header?: Array<TableCell | string>): string {
  const cell = (tag: 'td' | 'th', c: TableCell | string) => {
    const { text, align = 'left', bold = tag === 'th', span = 1 } = typeof c === 'string' ? { text: c } : c;
    const style = `padding:4px 8px;border-bottom:1px solid #ddd;text-align:${align};vertical-align:top${bold ? ';font-weight:bold' : ''}`;
    return `<${tag}${span > 1 ? ` colspan="${span}"` : ''} style="${style}">${multiline(text)}</${tag}>`;
  };
  const head = header ? `<tr>${header.map((c) => cell('th', c)).join('')}</tr>` : '';
  const body = rows.map((r) => `<tr>${r.map((c) => cell('td', c)).join('')}</tr>`).join('\n');
  return `<table style="border-collapse:collapse;width:100%;margin:0 0 16px;font-size:14px">${head}\n${body}</table>`;
}

/** Escapes `text` and keeps its line breaks as <br>. */
export function multiline(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

/** A value for a header line (subject): no line breaks, runs of white space collapsed. */
export function headerText(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
