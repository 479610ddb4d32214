/**
 * One session with a feed's mailbox (imapflow): connected through the egress policy (the address
 * connected to is the one the policy checked; TLS keeps the host name for SNI and the certificate),
 * with `error` and `close` always handled, so that a dropped connection fails the pending command
 * instead of the process. Each session reads from the feed's position afresh: every reconnect is
 * a catch-up.
 */
import type { EgressPolicy } from '@svc/engine';
import type { ImapFlow as ImapClient, MessageAddressObject } from 'imapflow';
import type { EmailFeedRow, FiltersSpec } from './repository.js';

export interface MailboxState {
  uidValidity: string;
  uidNext: number;
}

export interface FetchedMessage {
  uid: number;
  source: Buffer;
  messageId: string | null;
  from: string | null;
  subject: string | null;
  date: Date | null;
}

const TIMEOUT_MS = 15_000;

const addressText = (list?: MessageAddressObject[]) =>
  list?.map((a) => (a.name ? `${a.name} <${a.address ?? ''}>` : (a.address ?? ''))).join(', ') || null;

/** Why the mailbox could not be read, in words (imapflow's errors carry the server's answer apart). */
export function reasonOf(error: unknown): string {
  const e = error as { message?: string; responseText?: string; code?: string; authenticationFailed?: boolean };
  if (e.authenticationFailed) return `authentication failed${e.responseText ? `: ${e.responseText}` : ''}`;
  const text = e.responseText ? `${e.message}: ${e.responseText}` : (e.message ?? String(error));
  return e.code && !text.includes(e.code) ? `${text} (${e.code})` : text;
}

/**
 * A client of the feed's mailbox, not yet connected: to the address the egress policy checked, the
 * feed's host name kept for SNI and the certificate; `options` add to (or replace) the defaults.
 */
async function clientOf(
  feed: EmailFeedRow,
  password: string,
  egress: EgressPolicy,
  options: { socketTimeout?: number; maxIdleTime?: number },
): Promise<ImapClient> {
  const { address } = await egress.resolve(feed.host, feed.port);
  // imapflow is loaded by the first feed a process reads, not by every process.
  const { ImapFlow } = await import('imapflow');
  return new ImapFlow({
    host: address,
    port: feed.port,
    secure: feed.tls,
    servername: feed.host,
    tls: { servername: feed.host },
    auth: { user: feed.username, pass: password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    ...options,
  });
}

export async function openSession(feed: EmailFeedRow, password: string, egress: EgressPolicy) {
  const client = await clientOf(feed, password, egress, { socketTimeout: 60_000 });
  let failure: Error | undefined;
  client.on('error', (error: Error) => (failure ??= error));
  client.on('close', () => (failure ??= new Error('the IMAP server closed the connection')));
  await client.connect();

  const alive = () => {
    if (failure) throw failure;
  };

  return {
    /** UIDVALIDITY and UIDNEXT of the mailbox, without opening it. */
    async state(): Promise<MailboxState> {
      const status = await client.status(feed.mailbox, { uidValidity: true, uidNext: true });
      alive();
      if (!status) throw new Error(`mailbox ${feed.mailbox} cannot be read`);
      return { uidValidity: String(status.uidValidity), uidNext: status.uidNext ?? 0 };
    },
    /** Opens the mailbox (read-write unless nothing is done to messages); answers its state. */
    async open(): Promise<MailboxState> {
      const box = await client.mailboxOpen(feed.mailbox, { readOnly: feed.post_action === 'none' });
      alive();
      return { uidValidity: String(box.uidValidity), uidNext: box.uidNext };
    },
    /** UIDs above `after`, all of them and those passing the filters that the server checks (sender, day). */
    async newUids(after: number, filters: FiltersSpec) {
      const range = `${after + 1}:*`;
      // `n:*` always includes the highest UID, even below n: only UIDs above `after` count.
      const all = ((await client.search({ uid: range }, { uid: true })) || []).filter((u) => u > after);
      alive();
      if (all.length === 0) return { all, matching: all };
      if (!filters.from && !filters.since) return { all, matching: all };
      const matching = (
        (await client.search(
          {
            uid: `${after + 1}:${Math.max(...all)}`,
            ...(filters.from ? { from: filters.from } : {}),
            ...(filters.since ? { since: new Date(`${filters.since}T00:00:00Z`) } : {}),
          },
          { uid: true },
        )) || []
      ).filter((u) => u > after);
      alive();
      return { all, matching };
    },
    async fetch(uid: number): Promise<FetchedMessage | undefined> {
      const message = await client.fetchOne(String(uid), { uid: true, envelope: true, source: true }, { uid: true });
      alive();
      if (!message || !message.source) return undefined;
      return {
        uid,
        source: message.source,
        messageId: message.envelope?.messageId ?? null,
        from: addressText(message.envelope?.from),
        subject: message.envelope?.subject ?? null,
        date: message.envelope?.date ? new Date(message.envelope.date) : null,
      };
    },
    /** The post action on a loaded message. */
    async settle(uid: number) {
      if (feed.post_action === 'mark_seen') await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
      else if (feed.post_action === 'move') await client.messageMove(String(uid), feed.move_to!, { uid: true });
      else if (feed.post_action === 'delete') await client.messageDelete(String(uid), { uid: true });
      alive();
    },
    async close() {
      if (!failure) await client.logout().catch(() => undefined);
      client.close();
    },
  };
}

export type ImapSession = Awaited<ReturnType<typeof openSession>>;

/**
 * Watches a feed's mailbox with IMAP IDLE until `signal` aborts or the connection fails (which
 * rejects, with the reason). IDLE is only a hint: on connecting, and on every EXISTS the server
 * pushes, the mailbox is searched for UIDs above the feed's position (`position()`, read afresh
 * each time), and `onNew` is called when there are any, or when UIDVALIDITY is not the one the
 * feed knows; `onNew` answers false while a run of the feed is going, and the search is made again
 * a second later, so mail that came while that run was reading is not left for the next poll.
 */
export async function watchMailbox(
  feed: EmailFeedRow,
  password: string,
  egress: EgressPolicy,
  hooks: {
    position(): Promise<{ uidValidity: string | null; lastUid: number } | undefined>;
    onNew(): Promise<boolean>;
    onConnected?(): void;
    signal: AbortSignal;
    /** Longest IDLE before it is renewed (servers drop an IDLE left for ~30 minutes). */
    maxIdleMs?: number;
  },
): Promise<void> {
  const client = await clientOf(feed, password, egress, { maxIdleTime: hooks.maxIdleMs ?? 5 * 60_000 });
  let failure: Error | undefined;
  let wake: () => void = () => undefined;
  const woken = () => new Promise<void>((resolve) => (wake = resolve));
  client.on('error', (error: Error) => {
    failure ??= error;
    wake();
  });
  client.on('close', () => {
    failure ??= new Error('the IMAP server closed the connection');
    wake();
  });
  let changed = false;
  client.on('exists', () => {
    changed = true;
    wake();
  });
  const onAbort = () => wake();
  hooks.signal.addEventListener('abort', onAbort);
  const alive = () => {
    if (failure) throw failure;
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      hooks.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  /** Starts a run while the mailbox has messages the feed has not read (retrying while one is going). */
  const look = async () => {
    while (!hooks.signal.aborted) {
      const position = await hooks.position();
      if (!position) return;
      const box = client.mailbox;
      const uidValidity = box ? String(box.uidValidity) : null;
      let pending = uidValidity !== position.uidValidity;
      if (!pending) {
        const range = `${position.lastUid + 1}:*`;
        const uids = ((await client.search({ uid: range }, { uid: true })) || []).filter((u) => u > position.lastUid);
        alive();
        pending = uids.length > 0;
      }
      if (!pending || (await hooks.onNew())) return;
      await sleep(1000);
    }
  };
  try {
    await client.connect();
    await client.mailboxOpen(feed.mailbox, { readOnly: true });
    alive();
    hooks.onConnected?.();
    await look(); // the catch-up after every (re)connection
    while (!hooks.signal.aborted) {
      alive();
      const next = woken();
      const idling = client.idle();
      await Promise.race([idling, next]);
      alive();
      if (hooks.signal.aborted) break;
      if (changed) {
        changed = false;
        await look(); // its SEARCH ends the IDLE
      }
      await idling;
    }
  } finally {
    hooks.signal.removeEventListener('abort', onAbort);
    if (!failure) await client.logout().catch(() => undefined);
    client.close();
  }
}
