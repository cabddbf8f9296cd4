import { FAILED_EMAIL_TEXTS, FAILED_EMAILS_PATH, failedEmailReplayPath } from '../src/rules';

describe('failed e-mails', () => {
  it('the replay path keeps a job id with dots, colons or slashes in one segment', () => {
    expect(FAILED_EMAILS_PATH).toBe('/send/failed');
    expect(failedEmailReplayPath('email.e1.customer')).toBe('/send/failed/email.e1.customer/replay');
    expect(failedEmailReplayPath('a/b:c')).toBe('/send/failed/a%2Fb%3Ac/replay');
  });

  it('counts the e-mails waiting for a retry in words', () => {
    expect(FAILED_EMAIL_TEXTS.retrying(1)).toBe('1 e-mail waiting to be retried');
    expect(FAILED_EMAIL_TEXTS.retrying(12)).toBe('12 e-mails waiting to be retried');
  });
});
