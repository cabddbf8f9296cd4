/** The mail catcher: what nodemailer sends shows up in the Mailpit-shaped HTTP API. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { testEndpoints } from '../src/endpoints';
import { type MailCatcherInfo, startMailCatcher } from '../src/mail';

const { smtp, mailApiUrl } = testEndpoints();
const run = `t${randomBytes(4).toString('hex')}`;
const customer = `${run}.customer@example.test`;

interface Summary {
  ID: string;
  From: { Name: string; Address: string };
  To: { Name: string; Address: string }[];
  Subject: string;
  Created: string;
  Snippet: string;
}
const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const res = await fetch(`${mailApiUrl}${path}`, init);
  expect(res.ok).toBe(true);
  return (res.headers.get('content-type')?.includes('json') ? res.json() : res.text()) as Promise<T>;
};
const mine = () =>
  api<{ messages: Summary[] }>(`/api/v1/search?query=${encodeURIComponent(`to:${customer}`)}`);

test('a text+html e-mail is listed and returned whole; deleting by id removes it', async () => {
  const transport = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false });
  await transport.sendMail({
    from: '"Decor Rentals" <no-reply@decor.test>',
    to: `"Ada Customer" <${customer}>`,
    subject: 'Reset your password',
    text: 'Open http://127.0.0.1:8080/reset?token=abc to choose a new password.',
    html: '<p>Open <a href="http://127.0.0.1:8080/reset?token=abc">this link</a> to choose a new password.</p>',
  });
  await transport.sendMail({ from: 'no-reply@decor.test', to: customer, subject: 'Second', text: 'later' });
  transport.close();

  const all = await api<{ total: number; messages: Summary[] }>('/api/v1/messages');
  expect(all.total).toBeGreaterThanOrEqual(2);
  const { messages } = await mine();
  expect(messages.map((m) => m.Subject)).toEqual(['Second', 'Reset your password']); // newest first
  const reset = messages[1];
  if (!reset) throw new Error('the reset e-mail was not listed');
  expect(reset.From).toEqual({ Name: 'Decor Rentals', Address: 'no-reply@decor.test' });
  expect(reset.To).toEqual([{ Name: 'Ada Customer', Address: customer }]);
  expect(reset.Snippet).toContain('/reset?token=abc');
  expect(Number.isNaN(Date.parse(reset.Created))).toBe(false);

  const full = await api<{ ID: string; Subject: string; Text: string; HTML: string; Date: string }>(
    `/api/v1/message/${reset.ID}`,
  );
  expect(full).toMatchObject({ ID: reset.ID, Subject: 'Reset your password' });
  expect(full.Text).toContain('http://127.0.0.1:8080/reset?token=abc');
  expect(full.HTML).toContain('<a href="http://127.0.0.1:8080/reset?token=abc">');

  const page = await api<string>('/');
  expect(page).toContain('Reset your password');

  // Other test files share this catcher, so only this test's messages are deleted here.
  await api('/api/v1/messages', { method: 'DELETE', body: JSON.stringify({ IDs: [reset.ID] }) });
  expect((await mine()).messages.map((m) => m.Subject)).toEqual(['Second']);
  await api(`/api/v1/search?query=${encodeURIComponent(`to:${customer}`)}`, { method: 'DELETE' });
  expect((await mine()).messages).toEqual([]);
});

test('a catcher with a store file keeps messages across a restart; DELETE without ids clears all', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'decor-mail-'));
  const storeFile = join(dir, 'messages.json');
  try {
    const first = await startMailCatcher({ smtpPort: 0, apiPort: 0, storeFile });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: first.smtpPort, secure: false });
    await transport.sendMail({ from: 'no-reply@decor.test', to: customer, subject: 'Kept', text: 'kept' });
    transport.close();
    await first.close();

    const second = await startMailCatcher({ smtpPort: 0, apiPort: 0, storeFile });
    const base = `http://127.0.0.1:${second.apiPort}`;
    const listed = (await (await fetch(`${base}/api/v1/messages`)).json()) as { messages: Summary[] };
    expect(listed.messages.map((m) => m.Subject)).toEqual(['Kept']);
    expect((await fetch(`${base}/api/v1/messages`, { method: 'DELETE' })).status).toBe(200);
    expect(await (await fetch(`${base}/api/v1/messages`)).json()).toMatchObject({ total: 0, messages: [] });
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("with ignoreDuplicateIds (Mailpit's flag, npm start's catcher) a resend of a Message-ID already taken is dropped, even after its first copy was deleted and across a restart", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'decor-mail-'));
  const storeFile = join(dir, 'messages.json');
  const send = async (port: number, subject: string, messageId: string) => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false });
    await transport.sendMail({
      from: 'no-reply@decor.test',
      to: customer,
      subject,
      text: subject,
      messageId,
    });
    transport.close();
  };
  const read = async (apiPort: number) => {
    const base = `http://127.0.0.1:${apiPort}`;
    const listed = (await (await fetch(`${base}/api/v1/messages`)).json()) as { messages: Summary[] };
    const info = (await (await fetch(`${base}/api/v1/info`)).json()) as MailCatcherInfo;
    return { subjects: listed.messages.map((m) => m.Subject), ignored: info.RuntimeStats.SMTPIgnored };
  };
  try {
    const first = await startMailCatcher({ smtpPort: 0, apiPort: 0, storeFile, ignoreDuplicateIds: true });
    await send(first.smtpPort, 'Sent', '<job-1@decor.local>');
    await send(first.smtpPort, 'Resent', '<job-1@decor.local>');
    await send(first.smtpPort, 'Other', '<job-2@decor.local>');
    expect(await read(first.apiPort)).toEqual({ subjects: ['Other', 'Sent'], ignored: 1 });
    await first.close();

    // A restart reads the taken ids back from the store; a reader deleting them does not forget them.
    const second = await startMailCatcher({ smtpPort: 0, apiPort: 0, storeFile, ignoreDuplicateIds: true });
    expect(
      (await fetch(`http://127.0.0.1:${second.apiPort}/api/v1/messages`, { method: 'DELETE' })).status,
    ).toBe(200);
    await send(second.smtpPort, 'Resent after the restart', '<job-1@decor.local>');
    expect(await read(second.apiPort)).toEqual({ subjects: [], ignored: 1 });
    await second.close();

    // Without the flag (the tests' catcher) both copies are kept: a sender that sends twice shows.
    const strict = await startMailCatcher({ smtpPort: 0, apiPort: 0 });
    await send(strict.smtpPort, 'Sent', '<job-1@decor.local>');
    await send(strict.smtpPort, 'Resent', '<job-1@decor.local>');
    expect(await read(strict.apiPort)).toEqual({ subjects: ['Resent', 'Sent'], ignored: 0 });
    await strict.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
