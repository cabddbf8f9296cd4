import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A local mail catcher: an SMTP server that keeps every message, and an HTTP API shaped like a
 * subset of Mailpit's (https://mailpit.axllent.org/docs/api-v1/) so the same test code works
 * against a real Mailpit container.
 */

export interface MailAddress {
  Name: string;
  Address: string;
}

export interface CaughtMessage {
  ID: string;
  MessageID: string;
  From: MailAddress;
  To: MailAddress[];
  Cc: MailAddress[];
  /** Mailpit's too: where a reply goes (the contact form's sender). */
  ReplyTo: MailAddress[];
  Subject: string;
  /** When the catcher received it (ISO 8601). */
  Created: string;
  /** The message's Date header, else Created. */
  Date: string;
  Text: string;
  HTML: string;
  Snippet: string;
  Size: number;
  /** Mailpit's too: the attached files (name, type, bytes), without their content. */
  Attachments: { FileName: string; ContentType: string; Size: number }[];
}

export interface MailCatcherOptions {
  /** 0 picks a free port. */
  smtpPort: number;
  apiPort: number;
  /** Messages are also kept in this JSON file (dev), so a restart keeps them. */
  storeFile?: string;
  /**
   * Mailpit's `--ignore-duplicate-ids`: a message whose Message-ID is already held is taken (250) and
   * dropped. SMTP cannot tell a sender whether a message whose reply it never got arrived: a catcher
   * killed between storing a message and answering gets the retry too, and the stable Message-ID of
   * each e-mail job is how a server recognises it. On for `npm start` (as docker-compose's Mailpit);
   * off for the tests' catcher, where a second copy shows a sender that sent twice.
   */
  ignoreDuplicateIds?: boolean;
}

/** Mailpit's `GET /api/v1/info`, the part the catcher keeps. */
export interface MailCatcherInfo {
  Messages: number;
  /** SMTPIgnored: resends dropped by `ignoreDuplicateIds` since this process started. */
  RuntimeStats: { SMTPIgnored: number };
}

export interface MailCatcher {
  smtpPort: number;
  apiPort: number;
  close(): Promise<void>;
}

const KEEP_MESSAGES = 1000;
const KEEP_IDS = 100_000;

function addresses(field: AddressObject | AddressObject[] | undefined): MailAddress[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((o) => o.value).map((a) => ({ Name: a.name ?? '', Address: a.address ?? '' }));
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 250 ? `${flat.slice(0, 250)}…` : flat;
}

/** Mailpit's list entry: the message without its bodies. */
function summary(m: CaughtMessage) {
  const { Text: _text, HTML: _html, Date: _date, ...rest } = m;
  // Mailpit's list counts them; messages kept from before they were recorded have none.
  return { ...rest, Attachments: m.Attachments?.length ?? 0 };
}

/** A tiny subset of Mailpit's search syntax: `to:x from:x subject:x` and plain words, all "contains". */
function matches(m: CaughtMessage, query: string): boolean {
  const terms = query.match(/(\w+:)?("[^"]*"|\S+)/g) ?? [];
  return terms.every((term) => {
    const [, field, raw = ''] = term.match(/^(?:(\w+):)?(.*)$/) ?? [];
    const value = raw.replace(/^"|"$/g, '').toLowerCase();
    const list = (xs: MailAddress[]) =>
      xs.some((a) => `${a.Name} <${a.Address}>`.toLowerCase().includes(value));
    switch (field?.toLowerCase()) {
      case 'to':
        return list(m.To) || list(m.Cc);
      case 'from':
        return list([m.From]);
      case 'subject':
        return m.Subject.toLowerCase().includes(value);
      default:
        return `${m.Subject}\n${m.Text}`.toLowerCase().includes(value);
    }
  });
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function indexPage(messages: CaughtMessage[]): string {
  const rows = messages
    .map(
      (m) =>
        `<tr><td>${escapeHtml(new Date(m.Created).toLocaleString())}</td><td>${escapeHtml(m.To.map((a) => a.Address).join(', '))}</td>` +
        `<td><a href="/view/${m.ID}">${escapeHtml(m.Subject || '(no subject)')}</a></td><td>${escapeHtml(m.From.Address)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html><meta charset="utf-8"><title>Mail catcher</title>
<style>body{font:14px system-ui;margin:2em}td,th{padding:4px 10px;text-align:left;border-bottom:1px solid #ddd}</style>
<h1>Caught e-mail (${messages.length})</h1>
<p>Every message the local services send ends up here. JSON: <a href="/api/v1/messages">/api/v1/messages</a></p>
<table><tr><th>Received</th><th>To</th><th>Subject</th><th>From</th></tr>${rows}</table>`;
}

function messagePage(m: CaughtMessage): string {
  // The HTML body is shown sandboxed (no scripts); links open in a new tab.
  const body = m.HTML
    ? `<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" style="width:100%;height:70vh;border:1px solid #ddd" srcdoc="${escapeHtml(`<base target="_blank">${m.HTML}`)}"></iframe>`
    : `<pre style="white-space:pre-wrap">${escapeHtml(m.Text)}</pre>`;
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(m.Subject)}</title>
<style>body{font:14px system-ui;margin:2em}</style>
<p><a href="/">← all messages</a></p><h2>${escapeHtml(m.Subject)}</h2>
<p>From ${escapeHtml(`${m.From.Name} <${m.From.Address}>`)}<br>To ${escapeHtml(m.To.map((a) => `${a.Name} <${a.Address}>`).join(', '))}<br>${escapeHtml(m.Date)}</p>
${body}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startMailCatcher(o: MailCatcherOptions): Promise<MailCatcher> {
  let messages: CaughtMessage[] = []; // newest first
  if (o.storeFile && existsSync(o.storeFile)) {
    messages = JSON.parse(readFileSync(o.storeFile, 'utf8')) as CaughtMessage[];
  }
  let ignored = 0;
  // Message-IDs taken, deleted messages' too: a reader that deletes what it read (the chaos suite)
  // must not make the catcher take a late resend as new.
  const takenIds = new Set(messages.map((m) => m.MessageID).filter(Boolean));
  const persist = () => {
    if (!o.storeFile) return;
    mkdirSync(dirname(o.storeFile), { recursive: true });
    const tmp = `${o.storeFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(messages));
    renameSync(tmp, o.storeFile); // a crash mid-write never leaves half a file
  };

  const smtp = new SMTPServer({
    // smtp-server's built-in certificate is expired and nodemailer would fail STARTTLS on it.
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    size: 25 * 1024 * 1024,
    // Default is 30 s; a pooled client connection would hold up every stop.
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anyone' });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (o.ignoreDuplicateIds && mail.messageId) {
            if (takenIds.has(mail.messageId)) {
              ignored++;
              return callback();
            }
            takenIds.add(mail.messageId);
            if (takenIds.size > KEEP_IDS) takenIds.delete(takenIds.values().next().value as string);
          }
          const envelopeTo = session.envelope.rcptTo.map((r) => ({ Name: '', Address: r.address }));
          const created = new Date().toISOString();
          const text = mail.text ?? '';
          const from = addresses(mail.from)[0] ?? {
            Name: '',
            Address: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          };
          const to = addresses(mail.to);
          messages.unshift({
            ID: randomBytes(12).toString('base64url'),
            MessageID: mail.messageId ?? '',
            From: from,
            To: to.length > 0 ? to : envelopeTo,
            Cc: addresses(mail.cc),
            ReplyTo: addresses(mail.replyTo),
            Subject: mail.subject ?? '',
            Created: created,
            Date: mail.date?.toISOString() ?? created,
            Text: text,
            HTML: typeof mail.html === 'string' ? mail.html : '',
            Snippet: snippet(text),
            Size: stream.byteLength,
            Attachments: mail.attachments.map((a) => ({
              FileName: a.filename ?? '',
              ContentType: a.contentType,
              Size: a.size,
            })),
          });
          messages.length = Math.min(messages.length, KEEP_MESSAGES);
          persist();
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });

  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*' });
    res.end(type === 'application/json' ? JSON.stringify(body) : String(body));
  };
  const list = (url: URL, found: CaughtMessage[]) => {
    const start = Number(url.searchParams.get('start') ?? 0) || 0;
    const limit = Number(url.searchParams.get('limit') ?? 50) || 50;
    const page = found.slice(start, start + limit);
    return {
      total: messages.length,
      messages_count: found.length,
      start,
      count: page.length,
      messages: page.map(summary),
    };
  };

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const query = url.searchParams.get('query') ?? '';
    void (async () => {
      if (req.method === 'GET' && path === '/api/v1/messages') return send(res, 200, list(url, messages));
      if (req.method === 'GET' && path === '/api/v1/info') {
        const info: MailCatcherInfo = { Messages: messages.length, RuntimeStats: { SMTPIgnored: ignored } };
        return send(res, 200, info);
      }
      if (req.method === 'GET' && path === '/api/v1/search') {
        return send(
          res,
          200,
          list(
            url,
            messages.filter((m) => matches(m, query)),
          ),
        );
      }
      const one = path.match(/^\/(?:api\/v1\/message|view)\/([\w-]+)$/);
      if (req.method === 'GET' && one) {
        const m = messages.find((x) => x.ID === one[1]);
        if (!m) return send(res, 404, 'message not found', 'text/plain');
        const { Snippet: _s, Created: _c, ...full } = m;
        return path.startsWith('/view/')
          ? send(res, 200, messagePage(m), 'text/html; charset=utf-8')
          : send(res, 200, full);
      }
      if (req.method === 'DELETE' && (path === '/api/v1/messages' || path === '/api/v1/search')) {
        // Mailpit: DELETE /messages with {"IDs": [...]} deletes those, without it all; /search deletes matches.
        const body = await readBody(req);
        const ids = body ? ((JSON.parse(body) as { IDs?: string[] }).IDs ?? []) : [];
        const drop =
          path === '/api/v1/search'
            ? (m: CaughtMessage) => matches(m, query)
            : (m: CaughtMessage) => ids.length === 0 || ids.includes(m.ID);
        messages = messages.filter((m) => !drop(m));
        persist();
        return send(res, 200, 'ok', 'text/plain');
      }
      if (req.method === 'GET' && path === '/')
        return send(res, 200, indexPage(messages), 'text/html; charset=utf-8');
      send(res, 404, 'not found', 'text/plain');
    })().catch((err: Error) => send(res, 400, err.message, 'text/plain'));
  });

  const listen = (
    server: {
      listen(port: number, host: string, cb: () => void): unknown;
      once(e: 'error', cb: (err: Error) => void): unknown;
    },
    port: number,
  ) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
  await listen(smtp, o.smtpPort);
  try {
    await listen(http, o.apiPort);
  } catch (err) {
    await new Promise<void>((r) => smtp.close(() => r()));
    throw err;
  }
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const apiPort = (http.address() as AddressInfo).port;

  return {
    smtpPort,
    apiPort,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((r) => smtp.close(() => r())),
        new Promise<void>((r) => http.close(() => r())),
      ]);
    },
  };
}
