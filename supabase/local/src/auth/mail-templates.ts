import type { OutgoingMail } from '../mail.ts';

/**
 * GoTrue's default e-mail templates (subjects and wording), each with the one-time code and the
 * token hash added so that both verification paths — the link and verifyOtp — work from a mail.
 */

export type AuthMailKind =
  'confirmation' | 'invite' | 'magic_link' | 'recovery' | 'email_change' | 'reauthentication';

export interface AuthMailData {
  to: string;
  /** The /verify link; absent for reauthentication, which is code-only. */
  confirmationUrl?: string;
  otp: string;
  tokenHash?: string;
  /** For e-mail changes: the address being confirmed. */
  newEmail?: string;
}

interface Template {
  subject: (data: AuthMailData) => string;
  heading: string;
  intro: (data: AuthMailData) => string;
  action?: string;
  footer?: string;
}

const TEMPLATES: Record<AuthMailKind, Template> = {
  confirmation: {
    subject: () => 'Confirm your email address',
    heading: 'Confirm your email address',
    intro: () => 'Follow the link below to confirm this email address and finish signing up.',
    action: 'Confirm email address',
  },
  invite: {
    subject: () => "You've been invited",
    heading: "You've been invited",
    intro: () => "You've been invited to create an account. Follow the link below to accept.",
    action: 'Accept invitation',
  },
  magic_link: {
    subject: () => 'Your sign-in link',
    heading: 'Your sign-in link',
    intro: () =>
      'Follow the link below to sign in. This link expires shortly and can only be used once.',
    action: 'Sign in',
  },
  recovery: {
    subject: () => 'Reset your password',
    heading: 'Reset your password',
    intro: () =>
      'We received a request to reset your password. Follow the link below to choose a new one.',
    action: 'Reset password',
    footer: "If you didn't request this, you can safely ignore this email.",
  },
  email_change: {
    subject: () => 'Confirm your new email address',
    heading: 'Confirm your new email address',
    intro: (data) =>
      `Follow the link below to confirm ${data.newEmail ?? ''} as your new email address.`,
    action: 'Confirm new email address',
    footer: "If you didn't request this change, you can safely ignore this email.",
  },
  reauthentication: {
    subject: (data) => `${data.otp} is your verification code`,
    heading: 'Your verification code',
    intro: () => 'Use the code below to verify your identity. It expires shortly.',
  },
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

export function renderAuthMail(kind: AuthMailKind, data: AuthMailData): OutgoingMail {
  const template = TEMPLATES[kind];
  const intro = template.intro(data);
  const html: string[] = [
    `<h2>${escapeHtml(template.heading)}</h2>`,
    `<p>${escapeHtml(intro)}</p>`,
  ];
  const text: string[] = [template.heading, '', intro, ''];
  if (data.confirmationUrl && template.action) {
    html.push(
      `<p><a href="${escapeHtml(data.confirmationUrl)}">${escapeHtml(template.action)}</a></p>`,
    );
    text.push(`${template.action}: ${data.confirmationUrl}`, '');
  }
  if (template.action) {
    html.push(`<p>Alternatively, enter the code: ${escapeHtml(data.otp)}</p>`);
    text.push(`Alternatively, enter the code: ${data.otp}`);
  } else {
    html.push(`<p>${escapeHtml(data.otp)}</p>`);
    text.push(data.otp);
  }
  if (data.tokenHash) {
    html.push(`<p>Token hash: ${escapeHtml(data.tokenHash)}</p>`);
    text.push(`Token hash: ${data.tokenHash}`);
  }
  if (template.footer) {
    html.push(`<p>${escapeHtml(template.footer)}</p>`);
    text.push('', template.footer);
  }
  return {
    to: data.to,
    subject: template.subject(data),
    html: html.join('\n'),
    text: text.join('\n'),
  };
}
