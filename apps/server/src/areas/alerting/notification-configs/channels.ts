/**
 * The kinds of notification channel: the settings each takes (secret fields marked `x-secret`, write-only
 * and encrypted at rest) and how a message is delivered. Every connection goes through the instance's
 * egress policy: HTTP through an agent that connects to the checked address, SMTP to the checked
 * address with the configured name kept for TLS.
 */
import { createHmac } from 'node:crypto';
import type { EgressPolicy } from '@svc/engine';
import { Type, type TObject } from 'typebox';
import { describeFailure, postJson, truncateAnswer } from '../../../platform/outbound-http.js';

export const CHANNEL_TYPES = ['email', 'slack', 'teams', 'webhook', 'pagerduty'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

const secret = (description: string) => Type.String({ minLength: 1, maxLength: 4000, description, 'x-secret': true });
const HttpUrl = (description: string) =>
  Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000, description });

const EmailSettings = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 255, description: 'SMTP server' }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 587 }),
    tls: Type.Union([Type.Literal('starttls'), Type.Literal('tls'), Type.Literal('none')], {
      default: 'starttls',
      description:
        'starttls: upgrade required; tls: TLS from the first byte (port 465); none: plain (a trusted relay only)',
    }),
    user: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    password: Type.Optional(secret('SMTP password')),
    from: Type.String({ format: 'email', maxLength: 255 }),
    to: Type.Array(Type.String({ format: 'email', maxLength: 255 }), { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);

/** The SMTP server of users' own notifications (instance settings): an e-mail channel without recipients. */
export const SmtpServerSettings = Type.Object(
  {
    host: EmailSettings.properties.host,
    port: EmailSettings.properties.port,
    tls: EmailSettings.properties.tls,
    user: EmailSettings.properties.user,
    password: EmailSettings.properties.password,
    from: EmailSettings.properties.from,
  },
  { additionalProperties: false },
);

const SlackSettings = Type.Object(
  { url: { ...HttpUrl('Incoming webhook URL (it carries its token)'), 'x-secret': true } },
  { additionalProperties: false },
);

const TeamsSettings = Type.Object(
  {
    url: {
      ...HttpUrl('Workflows ("When a Teams webhook request is received") URL; Office 365 connectors are not supported'),
      'x-secret': true,
    },
  },
  { additionalProperties: false },
);

const WebhookSettings = Type.Object(
  {
    url: HttpUrl('Where the JSON body is POSTed'),
    headers: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z0-9-]{1,100}$' }), Type.String({ maxLength: 4000 }), {
        description: 'Extra request headers (may carry credentials: write-only)',
        'x-secret': true,
      }),
    ),
    hmac_secret: Type.Optional(
      secret('Signs each body: X-Svc-Signature: sha256=hex(HMAC-SHA256(secret, X-Svc-Timestamp + "." + body))'),
    ),
  },
  { additionalProperties: false },
);

const PagerDutySettings = Type.Object(
  {
    routing_key: secret('Integration (routing) key of the Events API v2 service'),
    url: Type.Optional(HttpUrl('Events API endpoint (default https://events.pagerduty.com/v2/enqueue)')),
  },
  { additionalProperties: false },
);

export const CHANNEL_SETTINGS: Record<ChannelType, TObject> = {
  email: EmailSettings,
  slack: SlackSettings,
  teams: TeamsSettings,
  webhook: WebhookSettings,
  pagerduty: PagerDutySettings,
};

export const PAGERDUTY_DEFAULT_URL = 'https://events.pagerduty.com/v2/enqueue';

/** What a notification says, whatever carries it. */
export interface AlertMessage {
  /** firing, resolved, or test. */
  state: 'firing' | 'resolved' | 'test';
  repeat: boolean;
  title: string;
  text: string;
  severity: 'info' | 'warning' | 'critical';
  /** The same for every notification of one rule and item: PagerDuty's dedup_key, webhook receivers' too. */
  dedup_key: string;
  link: string | null;
  rule: { id: string; name: string; kind: string } | null;
  project_id: string | null;
  item: { kind: string; id: string; name: string | null } | null;
  value: Record<string, unknown>;
  at: string;
}

export interface DeliveryResult {
  ok: boolean;
  /** HTTP status, or the SMTP reply code. */
  status: number | null;
  /** The remote answer (truncated), or why it failed. */
  response: string;
}

const ICON: Record<AlertMessage['state'], string> = { firing: '🔴', resolved: '✅', test: 'ℹ️' };

const SEVERITY_COLOR: Record<AlertMessage['severity'], string> = {
  info: 'Accent',
  warning: 'Warning',
  critical: 'Attention',
};

/** The one line a chat message and a mail subject lead with. */
export function headline(message: AlertMessage): string {
  const prefix = message.state === 'test' ? 'Test' : message.state === 'resolved' ? 'Resolved' : 'Firing';
  return `[${prefix}${message.repeat ? ', still' : ''}] ${message.title}`;
}

function slackBody(message: AlertMessage) {
  const link = message.link ? ` <${message.link}|Open>` : '';
  return { text: `${ICON[message.state]} ${headline(message)}\n${message.text}${link}` };
}

/** A Teams Workflows webhook takes a message whose attachment is an Adaptive Card. */
export function teamsBody(message: AlertMessage) {
  const facts = [
    { title: 'Severity', value: message.severity },
    ...(message.item ? [{ title: 'Item', value: `${message.item.kind} ${message.item.name ?? message.item.id}` }] : []),
    { title: 'At', value: message.at },
  ];
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              size: 'Medium',
              weight: 'Bolder',
              wrap: true,
              color: message.state === 'resolved' ? 'Good' : SEVERITY_COLOR[message.severity],
              text: headline(message),
            },
            { type: 'TextBlock', wrap: true, text: message.text },
            { type: 'FactSet', facts },
          ],
          actions: message.link ? [{ type: 'Action.OpenUrl', title: 'Open', url: message.link }] : [],
        },
      },
    ],
  };
}

const PD_SEVERITY: Record<AlertMessage['severity'], string> = {
  info: 'info',
  warning: 'warning',
  critical: 'critical',
};

export function pagerDutyBody(message: AlertMessage, routingKey: string) {
  const action = message.state === 'resolved' ? 'resolve' : 'trigger';
  return {
    routing_key: routingKey,
    event_action: action,
    dedup_key: message.dedup_key,
    ...(action === 'trigger'
      ? {
          payload: {
            summary: headline(message).slice(0, 1024),
            source: message.item ? `${message.item.kind}:${message.item.id}` : 'svc',
            severity: PD_SEVERITY[message.severity],
            timestamp: message.at,
            component: message.item?.kind,
            group: message.project_id ?? undefined,
            class: message.rule?.kind,
            custom_details: { text: message.text, ...message.value },
          },
          links: message.link ? [{ href: message.link, text: 'Open in svc' }] : [],
        }
      : {}),
  };
}

/** The signature header of a webhook body: sha256=hex(HMAC-SHA256(secret, `${timestamp}.${body}`)). */
export function webhookSignature(secretValue: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secretValue).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface DeliveryContext {
  egress: EgressPolicy;
  timeoutMs: number;
}

async function post(
  context: DeliveryContext,
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<DeliveryResult> {
  const answer = await postJson(context.egress, url, body, headers, context.timeoutMs);
  return { ok: answer.ok, status: answer.status, response: answer.body };
}

function mailText(message: AlertMessage): string {
  const lines = [headline(message), '', message.text, '', `Severity: ${message.severity}`];
  if (message.item) lines.push(`Item: ${message.item.kind} ${message.item.name ?? message.item.id}`);
  if (message.link) lines.push(`Open: ${message.link}`);
  lines.push(`At: ${message.at}`);
  return lines.join('\n');
}

export interface SmtpSettings {
  host: string;
  port: number;
  tls: 'starttls' | 'tls' | 'none';
  user?: string;
  password?: string;
  from: string;
}

/** Sends one mail through an SMTP server reached by the egress policy. */
export async function sendMail(
  context: DeliveryContext,
  smtp: SmtpSettings,
  to: string[],
  message: AlertMessage,
): Promise<DeliveryResult> {
  const { address } = await context.egress.resolve(smtp.host, smtp.port);
  // Loaded by the first mail a process sends, not by every process.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: address,
    port: smtp.port,
    secure: smtp.tls === 'tls',
    requireTLS: smtp.tls === 'starttls',
    ignoreTLS: smtp.tls === 'none',
    tls: { servername: smtp.host },
    name: 'svc',
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
    connectionTimeout: context.timeoutMs,
    greetingTimeout: context.timeoutMs,
    socketTimeout: context.timeoutMs,
  });
  try {
    const info = await transport.sendMail({
      from: smtp.from,
      to,
      subject: headline(message),
      text: mailText(message),
      headers: { 'X-Svc-Dedup-Key': message.dedup_key, 'X-Svc-State': message.state },
    });
    const code = Number(/^(\d{3})/.exec(info.response)?.[1] ?? 250);
    return { ok: info.rejected.length === 0, status: code, response: truncateAnswer(info.response) };
  } finally {
    transport.close();
  }
}

/** Delivers one message on one channel (settings with their secrets). Network errors are a failed result, not a throw. */
export async function deliver(
  context: DeliveryContext,
  type: ChannelType,
  settings: Record<string, unknown>,
  message: AlertMessage,
): Promise<DeliveryResult> {
  try {
    switch (type) {
      case 'email':
        return await sendMail(context, settings as unknown as SmtpSettings, settings['to'] as string[], message);
      case 'slack':
        return await post(context, String(settings['url']), JSON.stringify(slackBody(message)));
      case 'teams':
        return await post(context, String(settings['url']), JSON.stringify(teamsBody(message)));
      case 'webhook': {
        const body = JSON.stringify(message);
        const headers: Record<string, string> = { ...(settings['headers'] as Record<string, string> | undefined) };
        const key = settings['hmac_secret'] as string | undefined;
        if (key) {
          const timestamp = String(Math.floor(Date.now() / 1000));
          headers['x-svc-timestamp'] = timestamp;
          headers['x-svc-signature'] = webhookSignature(key, timestamp, body);
        }
        return await post(context, String(settings['url']), body, headers);
      }
      case 'pagerduty':
        return await post(
          context,
          String(settings['url'] ?? PAGERDUTY_DEFAULT_URL),
          JSON.stringify(pagerDutyBody(message, String(settings['routing_key']))),
        );
    }
  } catch (error) {
    return { ok: false, status: null, response: describeFailure(error) };
  }
}
