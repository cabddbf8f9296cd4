import { type Brand, type Email, escapeHtml, htmlFrame } from './email';

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
  const link = escapeHtml(input.resetUrl);
  const html = htmlFrame(brand, subject, [
    escapeHtml(greeting),
    `We received a request to reset the password of your ${escapeHtml(brand.companyName)} account.`,
    `<a href="${link}" style="display:inline-block;padding:10px 18px;background:#1f4e79;color:#fff;text-decoration:none;border-radius:4px">Choose a new password</a>`,
    `This link works once and expires in one hour: <a href="${link}">${link}</a>`,
    'If you did not ask for this, you can ignore this e-mail; your password stays the same.',
  ]);
  return { to: input.email, subject, text, html };
}
