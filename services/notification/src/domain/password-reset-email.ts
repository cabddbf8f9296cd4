import { type Brand, buttonLink, type Email, escapeHtml, htmlFrame, link } from './email';

export interface PasswordResetEmailInput {
  email: string;
  displayName: string;
  resetUrl: string;
}

export function passwordResetEmail(brand: Brand, input: PasswordResetEmailInput): Email {
  const greeting = input.displayName ? `Hello ${input.displayName},` : 'Hello,';
  const subject = `Reset your ${brand.companyName} password`;
  const text = [
    greeting,
    '',
    `We received a request to reset the password of your ${brand.companyName} account.`,
    `Open this link within one hour to choose a new password: ${input.resetUrl}`,
    '',
    'If you did not ask for this, you can ignore this e-mail; your password stays the same.',
    '',
    `${brand.companyName} · ${brand.baseUrl}`,
  ].join('\n');
  const html = htmlFrame(brand, subject, [
    escapeHtml(greeting),
    `We received a request to reset the password of your ${escapeHtml(brand.companyName)} account.`,
    buttonLink(input.resetUrl, 'Choose a new password'),
    `This link works once and expires in one hour: ${link(input.resetUrl)}`,
    'If you did not ask for this, you can ignore this e-mail; your password stays the same.',
  ]);
  return { to: input.email, subject, text, html };
}
