import type { RouteName } from '../../routes/paths.ts';

export interface LegalDocument {
  title: string;
  updated: string;
  sections: readonly { heading: string; paragraphs: readonly string[] }[];
}

/**
 * The legal pages' text. It is PLACEHOLDER text, written to be sensible and complete in shape,
 * not reviewed by a lawyer; each page says so at the top. Replace it before launch.
 */
export const LEGAL_DOCUMENTS: Partial<Record<RouteName, LegalDocument>> = {
  terms: {
    title: 'Terms of Service',
    updated: '22 November 2026',
    sections: [
      {
        heading: '1. Who we are and what these terms cover',
        paragraphs: [
          'These terms govern your use of Shortlane, a service that turns long web addresses into short links, and of its website, apps and API. By creating an account or a short link you accept them.',
        ],
      },
      {
        heading: '2. Your account',
        paragraphs: [
          'You must give a valid e-mail address and keep your password safe. You are responsible for what happens under your account, including by members of your teams and organizations.',
          'You may delete your account at any time from your profile settings.',
        ],
      },
      {
        heading: '3. Acceptable use',
        paragraphs: [
          'Do not use short links to hide malware, phishing, spam, illegal content or anything that infringes the rights of others. We may disable links and terminate accounts that break this rule, without notice.',
        ],
      },
      {
        heading: '4. Plans, payment and cancellation',
        paragraphs: [
          'Paid plans are billed monthly or yearly in advance. You can cancel at any time; your plan stays active until the end of the period you paid for. Amounts already paid are not refunded unless the law requires it.',
        ],
      },
      {
        heading: '5. Liability',
        paragraphs: [
          'The service is provided as is. To the extent the law allows, our liability is limited to the amount you paid us in the twelve months before the claim.',
        ],
      },
      {
        heading: '6. Changes',
        paragraphs: [
          'We may change these terms. We will tell you by e-mail or in the app at least 30 days before a change that affects you takes effect.',
        ],
      },
    ],
  },
  cookies: {
    title: 'Cookie Policy',
    updated: '22 November 2026',
    sections: [
      {
        heading: 'What we store in your browser',
        paragraphs: [
          'Essential: your sign-in session, kept in your browser’s local storage so you stay signed in; your answers to the cookie notice and your privacy choice.',
          'Preferences: settings such as the statistics period you last chose and whether you skipped the onboarding survey.',
          'Advertising: visitors without a paid plan see ads; our ad partners may set cookies to choose and measure them, unless you opt out in the Privacy Manager.',
        ],
      },
      {
        heading: 'The privacy opt-out cookie',
        paragraphs: [
          'When you make a choice in the Privacy Manager we store it in a cookie named tinyStrictPrivate, with the value true or false. It does not expire, so your choice is kept until you change it or clear your cookies.',
        ],
      },
      {
        heading: 'Managing cookies',
        paragraphs: [
          'You can delete cookies and local storage in your browser’s settings at any time. Without the essential ones you will be signed out.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Privacy Policy',
    updated: '22 November 2026',
    sections: [
      {
        heading: 'What we collect',
        paragraphs: [
          'Account data: your e-mail address, name, photo and password (stored only as a hash).',
          'Link data: the addresses you shorten, their aliases, tags and settings.',
          'Click data: for each click on a short link, the time, country, device type, browser, operating system and referring site. We keep a salted hash of the visitor’s IP address, never the address itself.',
        ],
      },
      {
        heading: 'Why we use it',
        paragraphs: [
          'To run the service, bill paid plans, show you analytics, prevent abuse, and tell you about changes. We do not sell your personal information; where ads are shown you can opt out of sharing for advertising.',
        ],
      },
      {
        heading: 'Your rights',
        paragraphs: [
          'You can see, correct, export or delete your data from your settings, or by writing to us. Residents of California (CCPA) and the EU/EEA (GDPR) have the rights their laws give them, which we honour for everyone.',
        ],
      },
      {
        heading: 'How long we keep it',
        paragraphs: [
          'Account data until you delete your account; click data for as long as your plan’s analytics period; invoices for as long as tax law requires.',
        ],
      },
    ],
  },
  dataProcessingAgreement: {
    title: 'Data Processing Agreement',
    updated: '22 November 2026',
    sections: [
      {
        heading: 'Roles',
        paragraphs: [
          'For personal data in the links and click data of an organization, the organization is the controller and Shortlane the processor. This agreement forms part of the terms between them.',
        ],
      },
      {
        heading: 'Processing',
        paragraphs: [
          'We process personal data only on documented instructions, to provide the service; we keep it confidential and protect it with appropriate technical and organizational measures.',
        ],
      },
      {
        heading: 'Sub-processors and transfers',
        paragraphs: [
          'We list our sub-processors on request and give 30 days’ notice before adding one. Transfers outside the EEA rely on the European Commission’s standard contractual clauses.',
        ],
      },
      {
        heading: 'Breaches, audits and deletion',
        paragraphs: [
          'We report a personal data breach without undue delay, support audits once a year, and delete or return the data when the contract ends.',
        ],
      },
    ],
  },
  enterpriseTerms: {
    title: 'Enterprise Terms',
    updated: '22 November 2026',
    sections: [
      {
        heading: 'Scope',
        paragraphs: [
          'These terms add to the Terms of Service for organizations on the Enterprise plan and prevail where the two differ.',
        ],
      },
      {
        heading: 'Commitments',
        paragraphs: [
          'Enterprise includes a dedicated manager, an emergency phone line and the service levels of the Service Level Agreement.',
        ],
      },
      {
        heading: 'Term and invoicing',
        paragraphs: [
          'Enterprise subscriptions run for the term in the order form and renew for the same term unless cancelled 30 days before it ends. Invoices are payable within 30 days.',
        ],
      },
    ],
  },
  serviceLevelAgreement: {
    title: 'Service Level Agreement',
    updated: '22 November 2026',
    sections: [
      {
        heading: 'Availability',
        paragraphs: [
          'Short-link redirects are available 99.9% of each calendar month, not counting maintenance announced 48 hours ahead.',
        ],
      },
      {
        heading: 'Service credits',
        paragraphs: [
          'Below 99.9%: 10% of that month’s fee; below 99.0%: 25%; below 95.0%: 50%. Ask for credits within 30 days of the month’s end.',
        ],
      },
      {
        heading: 'Support response times',
        paragraphs: [
          'Critical: 1 hour, around the clock. High: 4 business hours. Normal: 1 business day.',
        ],
      },
    ],
  },
  supplementalTerms: {
    title: 'Supplemental Terms',
    updated: '22 November 2026',
    sections: [
      {
        heading: 'Domains you buy through us',
        paragraphs: [
          'Domain registrations are also subject to the registry’s and registrar’s rules. A domain renews each year unless you turn renewal off; if a renewal fails the domain may lapse.',
        ],
      },
      {
        heading: 'Promotions and coupons',
        paragraphs: [
          'A coupon applies only to the plans and billing periods it names, cannot be exchanged for cash and cannot be combined with other offers unless stated.',
        ],
      },
      {
        heading: 'API use',
        paragraphs: [
          'API calls count against your plan’s API credits; we may slow down clients that make excessive calls.',
        ],
      },
    ],
  },
};
