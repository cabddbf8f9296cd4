import { passwordResetEmail } from '../src/domain/password-reset-email';

const brand = { companyName: 'Gala & Co Event Rentals', baseUrl: 'http://127.0.0.1:8080' };

describe('password reset e-mail', () => {
  const mail = passwordResetEmail(brand, {
    email: 'ana@example.com',
    displayName: 'Ana <b>Diaz</b>',
    resetUrl: 'http://127.0.0.1:8080/reset/tok"en',
  });

  it('has a subject naming what it is and the company', () => {
    expect(mail.subject).toBe('Reset your Gala & Co Event Rentals password');
    expect(mail.to).toBe('ana@example.com');
  });

  it('carries the absolute link in both parts, escaped in HTML', () => {
    expect(mail.text).toContain('http://127.0.0.1:8080/reset/tok"en');
    expect(mail.html).toContain('href="http://127.0.0.1:8080/reset/tok&quot;en"');
    expect(mail.html).toContain('Ana &lt;b&gt;Diaz&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Diaz</b>');
    expect(mail.html).toContain('Gala &amp; Co Event Rentals');
  });
});
