import type { RouteName } from '../../routes/paths.ts';

/** One question of the help page, with where in the product it is done. */
export interface HelpQuestion {
  question: string;
  answer: string;
  /** The page the answer is about, if there is one. */
  link?: { route: RouteName; label: string };
}

export interface HelpTopic {
  title: string;
  questions: readonly HelpQuestion[];
}

/** The help page's answers, grouped as people look for them. */
export const HELP_TOPICS: readonly HelpTopic[] = [
  {
    title: 'Short links',
    questions: [
      {
        question: 'How do I shorten a link?',
        answer:
          'Paste the long address into the form on the homepage and press Shorten. Guests can shorten links too; with an account your links are kept, counted and editable.',
        link: { route: 'homepage', label: 'Shorten a link' },
      },
      {
        question: 'Can I choose the end of my short link?',
        answer:
          'Yes: type your own alias in the form. Aliases are letters, digits, dashes and underscores, and must be free on the domain you picked.',
      },
      {
        question: 'Can a link stop working on a date?',
        answer:
          'Set an expiry when you create or edit the link. After it, visitors see that the link has expired instead of being sent on.',
      },
      {
        question: 'How do I shorten many links at once?',
        answer:
          'Use bulk creation with a CSV or spreadsheet file. Its page shows the progress, every refused row with its line number and reason, and a CSV of the results.',
      },
      {
        question: 'Why was my link refused?',
        answer:
          'We refuse destinations that are unsafe or banned, addresses on private networks, and links to our own short domains. The message under the field says which rule applied.',
      },
    ],
  },
  {
    title: 'Branded domains',
    questions: [
      {
        question: 'How do I use my own domain?',
        answer:
          'Add it under Branded domains, then set the DNS records the page shows: a TXT record proving the domain is yours and a CNAME (or A/AAAA) pointing it at us. We check them automatically and the domain works as soon as they are right.',
        link: { route: 'settings.brandedDomains', label: 'Branded domains' },
      },
      {
        question: 'My domain stays pending. What now?',
        answer:
          'DNS changes can take a while to spread. The verify page shows which record is still missing or wrong; fix it and press Check now. Pending domains are checked again in the background for three days.',
      },
    ],
  },
  {
    title: 'Analytics',
    questions: [
      {
        question: 'What do you count?',
        answer:
          'Each visit of a short link: when, from which country, device, browser, operating system and referrer. We do not store visitors’ addresses. Which periods you see depends on your plan.',
      },
    ],
  },
  {
    title: 'API and integrations',
    questions: [
      {
        question: 'How do I use the API?',
        answer:
          'Create a token under API tokens with the abilities it needs, and send it as a Bearer token. The developer page documents every call and lets you try them.',
        link: { route: 'settings.api', label: 'API tokens' },
      },
      {
        question: 'Can you tell my system when something happens?',
        answer:
          'Add a webhook endpoint in your settings. We send signed events (links created, updated, deleted, clicked; bulk jobs finished; domains verified) and retry failed deliveries for about a day.',
        link: { route: 'settings.webhooks', label: 'Webhooks' },
      },
    ],
  },
  {
    title: 'Plans and billing',
    questions: [
      {
        question: 'How do I change or cancel my plan?',
        answer:
          'Open your subscription in the settings. An upgrade starts at once and is prorated; a downgrade starts at the end of the period you paid for. A cancelled plan keeps working until then.',
        link: { route: 'settings.subscription', label: 'Subscription' },
      },
      {
        question: 'Where are my invoices?',
        answer: 'Every invoice is in the settings, with a PDF to download.',
        link: { route: 'settings.invoices', label: 'Invoices' },
      },
      {
        question: 'We need more than the plans offer.',
        answer:
          'Ask for an Enterprise quote: single sign-on, an audit trail, custom limits and a service-level agreement, sized to your volume.',
        link: { route: 'pricing.quote', label: 'Request a quote' },
      },
    ],
  },
  {
    title: 'Account and security',
    questions: [
      {
        question: 'How do I turn on two-factor authentication?',
        answer:
          'Under Security, scan the code with an authenticator app and enter the code it shows. Keep the backup codes somewhere safe: each opens your account once if you lose the phone.',
        link: { route: 'settings.security', label: 'Security' },
      },
      {
        question: 'How do I stop your e-mails?',
        answer:
          'Use the unsubscribe link at the bottom of any of our e-mails, or switch product e-mails off here. Account and billing e-mails always arrive.',
        link: { route: 'unsubscribe', label: 'E-mail settings' },
      },
      {
        question: 'How do I delete my account?',
        answer:
          'Under Profile, choose Delete account. Your links stop redirecting and your data is removed.',
        link: { route: 'settings.profile.delete', label: 'Delete account' },
      },
    ],
  },
];

/** The topics with only the questions whose question or answer holds every word of `query`. */
export function searchHelp(
  topics: readonly HelpTopic[],
  query: string,
): { title: string; questions: HelpQuestion[] }[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return topics
    .map((topic) => ({
      title: topic.title,
      questions: topic.questions.filter((item) => {
        const text = `${topic.title} ${item.question} ${item.answer}`.toLowerCase();
        return words.every((word) => text.includes(word));
      }),
    }))
    .filter((topic) => topic.questions.length > 0);
}
