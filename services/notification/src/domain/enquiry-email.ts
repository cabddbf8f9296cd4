import {
  type Brand,
  type Email,
  escapeHtml,
  headerText,
  heading,
  htmlDocument,
  multiline,
  paragraph,
  table,
} from './email';
import { formatLongDate } from './format';

/** What a visitor sends through the site's contact form. */
export interface Enquiry {
  name: string;
  email: string;
  phone?: string;
  /** YYYY-MM-DD, when the sender gave their event's date. */
  eventDate?: string;
  message: string;
}

/** The contact form's message, to the staff; replying answers the visitor. */
export function enquiryEmail(brand: Brand, staffEmail: string, enquiry: Enquiry): Email {
  const name = headerText(enquiry.name);
  const phone = enquiry.phone?.trim() ?? '';
  const eventDate = enquiry.eventDate ? formatLongDate(enquiry.eventDate) : '';
  const message = enquiry.message.trim();
  const subject = `Website enquiry from ${name}`;
  const intro = `${name} sent a message through the contact form of ${brand.companyName}. Reply to this e-mail to answer them.`;
  const rows = [
    { label: 'Name', value: name },
    { label: 'E-mail', value: enquiry.email },
    ...(phone ? [{ label: 'Phone', value: phone }] : []),
    ...(eventDate ? [{ label: 'Event Date', value: eventDate }] : []),
  ];
  const text = [
    intro,
    '',
    ...rows.map((r) => `${r.label}: ${r.value}`),
    '',
    'Message:',
    message,
    '',
    `${brand.companyName} · ${brand.baseUrl}`,
  ].join('\n');
  const html = htmlDocument(brand, subject, [
    paragraph(escapeHtml(intro)),
    table(rows.map((r) => [{ text: r.label, bold: true }, r.value])),
    heading('Message'),
    paragraph(multiline(message)),
  ]);
  return { to: staffEmail, subject, text, html, replyTo: enquiry.email };
}
