/**
 * The DNS records a customer sets to verify a branded domain, as the portal shows them and the
 * verifier (edge function domain-verify) looks for them: a TXT record on a fixed label under the
 * domain holding the domain's verification token, and the domain itself pointing at the
 * redirect host (a CNAME, or A/AAAA records where a CNAME cannot be set, e.g. at a zone apex).
 */

export const VERIFICATION_LABEL = '_shortlane-verification';

export const verificationRecordName = (domain: string) => `${VERIFICATION_LABEL}.${domain}`;

/** Why a check did not pass (public.domains.verification_problem). */
export const VERIFICATION_PROBLEMS = [
  'txt_missing',
  'txt_mismatch',
  'host_not_pointing',
  'dns_error',
] as const;
export type VerificationProblem = (typeof VERIFICATION_PROBLEMS)[number];

export const VERIFICATION_PROBLEM_MESSAGES: Readonly<Record<VerificationProblem, string>> = {
  txt_missing: 'The TXT record was not found.',
  txt_mismatch: 'The TXT record does not hold the verification token.',
  host_not_pointing: 'The domain does not point at our redirect host yet.',
  dns_error: 'DNS could not be asked; we will try again.',
};
