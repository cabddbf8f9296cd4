import type { AgreementSigned, PayloadOf } from '@decor/contracts';
import {
  type Brand,
  button,
  type Email,
  escapeHtml,
  headerText,
  htmlDocument,
  link,
  paragraph,
} from './email';
import { orderUrl, summary } from './estimate-emails';

export type SignedAgreement = PayloadOf<typeof AgreementSigned>;

/**
 * Issue 30: the confirmation of an online acceptance, to the customer and to staff, each with the
 * signed agreement attached (read from the object store by its key when the e-mail is sent).
 */
export function agreementSignedEmails(
  brand: Brand,
  staffEmail: string,
  signed: SignedAgreement,
): { recipient: 'customer' | 'staff'; email: Email }[] {
  const { order } = signed;
  const url = orderUrl(brand, 'estimate', signed.estimateId);
  const attachments = [
    { filename: `agreement-${signed.docNumber}.pdf`, key: signed.pdfKey, contentType: 'application/pdf' },
  ];
  const parts = summary(order);
  const when = new Date(signed.acceptedAt).toUTCString();
  const build = (to: string, subject: string, intro: string, buttonLabel: string): Email => {
    const title = headerText(subject);
    const lines = [intro, `The signed rental agreement is attached (SHA-256 ${signed.sha256}).`];
    return {
      to,
      subject: title,
      text: [
        ...lines,
        '',
        ...parts.text,
        '',
        `${buttonLabel}: ${url}`,
        '',
        `${brand.companyName} · ${brand.baseUrl}`,
      ].join('\n'),
      html: htmlDocument(brand, title, [
        ...lines.map((l) => paragraph(escapeHtml(l))),
        ...parts.html,
        button(url, buttonLabel),
        paragraph(`Or open this link: ${link(url)}`),
      ]),
      attachments,
    };
  };
  const customer =
    order.customer.companyName?.trim() || order.customer.displayName.trim() || order.customer.email;
  return [
    {
      recipient: 'customer',
      email: build(
        order.customer.email,
        `Your estimate #${signed.docNumber} is accepted`,
        `Thank you, ${signed.signerName}: you accepted estimate #${signed.docNumber} on ${when} and your booking is confirmed.`,
        'View your estimate',
      ),
    },
    {
      recipient: 'staff',
      email: build(
        staffEmail,
        `Estimate #${signed.docNumber} was accepted by ${customer}`,
        `${signed.signerName} (${customer}) accepted estimate #${signed.docNumber} online on ${when}; its booking is confirmed.`,
        'Review the estimate',
      ),
    },
  ];
}
