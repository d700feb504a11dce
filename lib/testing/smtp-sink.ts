/**
 * A real SMTP server on loopback for mail tests (the `smtp-server` package, never a mock of one): it
 * checks the login it is given, records each message (envelope, raw text, and its parts decoded), and
 * answers `550` to the recipients `reject` names. Listens on 127.0.0.1, on the first free port from
 * `TEST_PORT_BASE + 30` (10 tried), or on any free port when that is 0.
 */
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../config';

export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | null;
  raw: string;
  headers: Record<string, string>;
  /** Decoded bodies of the message's parts, by content type (`text/plain`, `text/html`). */
  parts: Record<string, string>;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  close: () => Promise<void>;
}

/** Headers of one MIME entity (folded lines joined; names lowercase). */
function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

function decode(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The decoded leaf parts of a MIME entity, by content type (nested multiparts walked). */
export function mimeParts(entity: string, into: Record<string, string> = {}): Record<string, string> {
  const split = entity.search(/\r?\n\r?\n/);
  const head = headersOf(split < 0 ? entity : entity.slice(0, split));
  const body = split < 0 ? '' : entity.slice(split).replace(/^\r?\n\r?\n/, '');
  const type = (head['content-type'] ?? 'text/plain').split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(head['content-type'] ?? '')?.[1];
    if (!boundary) return into;
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      mimeParts(section.replace(/^\r?\n/, ''), into);
    }
    return into;
  }
  into[type] = decode(body, head['content-transfer-encoding']);
  return into;
}

/** Start a sink that accepts `user`/`password` (when given, a login is required) and refuses `reject`'s recipients with 550. */
export async function startSmtpSink(opts: { user?: string; password?: string; reject?: string[] } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: !opts.user,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === opts.user && auth.password === opts.password) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (opts.reject?.includes(address.address)) {
        const e = new Error('mailbox unavailable') as Error & { responseCode: number };
        e.responseCode = 550;
        return callback(e);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const split = raw.search(/\r?\n\r?\n/);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: (session.user as string | undefined) ?? null,
          raw,
          headers: headersOf(raw.slice(0, split)),
          parts: mimeParts(raw),
        });
        callback(null, 'OK: queued as test');
      });
    },
  });
  const base = loadConfig().testPortBase;
  const candidates = base === 0 ? [0] : Array.from({ length: 10 }, (_, i) => base + 30 + i);
  for (const port of candidates) {
    const listening = await new Promise<number | null>((resolve) => {
      const onError = () => resolve(null);
      server.server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.server.off('error', onError);
        resolve((server.server.address() as { port: number }).port);
      });
    });
    if (listening !== null) return { port: listening, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
  }
  throw new Error('no free port for the SMTP sink');
}
