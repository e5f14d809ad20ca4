import type { RouteName } from '../../routes/paths.ts';

export interface FeatureContent {
  title: string;
  lead: string;
  sections: readonly { heading: string; text: string }[];
}

/** The feature pages' copy, by route name. */
export const FEATURE_CONTENT: Partial<Record<RouteName, FeatureContent>> = {
  'features.linkManagement': {
    title: 'Link management',
    lead: 'Every short link you make in one place: find it, change it, tidy it up.',
    sections: [
      {
        heading: 'Search and tags',
        text: 'Find a link by its alias, destination or tag, and group campaigns with tags.',
      },
      {
        heading: 'Edit after sharing',
        text: 'Change where a link leads on a paid plan; everyone who has it follows the change.',
      },
      {
        heading: 'Archive and expire',
        text: 'Archive links you no longer use, or let a link expire on the date you choose.',
      },
    ],
  },
  'features.customLinks': {
    title: 'Custom links',
    lead: 'Choose the words after the slash, so a link says where it goes.',
    sections: [
      {
        heading: 'Readable aliases',
        text: 'Letters, numbers, dashes and underscores: spring-sale reads better than a code.',
      },
      {
        heading: 'Campaign parameters',
        text: 'Add UTM source, medium and campaign with the builder and save them as presets.',
      },
    ],
  },
  'features.brandedDomains': {
    title: 'Branded domains',
    lead: 'Short links on your own domain build trust and get more clicks.',
    sections: [
      {
        heading: 'Connect a domain you own',
        text: 'Add a DNS record, we verify it, and your links use your name.',
      },
      {
        heading: 'Or take a vanity subdomain',
        text: 'yourname on one of our domains, ready in a minute.',
      },
      {
        heading: 'Root and 404 redirects',
        text: 'Send visitors of the bare domain or of a missing link wherever you like.',
      },
    ],
  },
  'features.linkAnalytics': {
    title: 'Link analytics',
    lead: 'See who clicks, when, from where and on what.',
    sections: [
      {
        heading: 'Clicks over time',
        text: 'The last hour, day, week or month, with the total and the trend.',
      },
      {
        heading: 'Where clicks come from',
        text: 'Countries, devices, browsers, operating systems and referring sites.',
      },
      { heading: 'Share a report', text: 'Give a read-only view of a link’s analytics to anyone.' },
    ],
  },
  'features.freeDomains': {
    title: 'Free domains',
    lead: 'Several short domains come with every account, free of charge.',
    sections: [
      {
        heading: 'Pick per link',
        text: 'Choose the domain that suits each link from the list in the create form.',
      },
      {
        heading: 'Discounted domains',
        text: 'Paid plans include discounted domains of your own to register in a few clicks.',
      },
    ],
  },
  'features.howItWorks': {
    title: 'How it works',
    lead: 'Paste a long address, get a short link, share it.',
    sections: [
      { heading: '1. Paste', text: 'Put the long web address in the form and pick a domain.' },
      {
        heading: '2. Shorten',
        text: 'Keep the random alias or choose your own, then create the link.',
      },
      {
        heading: '3. Share and measure',
        text: 'Copy it, share it or download its QR code, and watch the clicks arrive.',
      },
    ],
  },
  'features.aboutUs': {
    title: 'About us',
    lead: 'We make links shorter, clearer and more useful.',
    sections: [
      {
        heading: 'What we do',
        text: 'A link shortener for people, teams and organizations, with the tools they need to share and measure.',
      },
      {
        heading: 'How we work',
        text: 'Privacy first: we keep only what the product needs and let you opt out of the rest.',
      },
    ],
  },
};
