import type { ShareNetwork } from '@shortlane/shared/constants.ts';
import { SHARE_NETWORKS } from '@shortlane/shared/constants.ts';

/** A share target of the result's share menu (link-creation 9: the five networks). */
export interface ShareLink {
  network: ShareNetwork;
  label: string;
  href: string;
}

const LABELS: Record<ShareNetwork, string> = {
  facebook: 'Facebook',
  twitter: 'Twitter',
  whatsapp: 'WhatsApp',
  linkedin: 'LinkedIn',
  email: 'Email',
};

/** Each network's own "share this address" entry point, with the short URL encoded into it. */
function shareHref(network: ShareNetwork, shortUrl: string): string {
  const url = encodeURIComponent(shortUrl);
  switch (network) {
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${url}`;
    case 'twitter':
      return `https://twitter.com/intent/tweet?url=${url}`;
    case 'whatsapp':
      return `https://api.whatsapp.com/send?text=${url}`;
    case 'linkedin':
      return `https://www.linkedin.com/sharing/share-offsite/?url=${url}`;
    case 'email':
      return `mailto:?body=${url}`;
  }
}

export function shareLinks(shortUrl: string): ShareLink[] {
  return SHARE_NETWORKS.map((network) => ({
    network,
    label: LABELS[network],
    href: shareHref(network, shortUrl),
  }));
}
