/** The rule public.domain_name checks: lower-case, at least two labels, a real TLD shape. */
const DOMAIN_NAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export const normalizeDomainName = (value: string) =>
  typeof value === 'string' ? value.trim().toLowerCase().replace(/\.$/, '') : value;

export const validateDomainName = (value: string) =>
  typeof value === 'string' && value.length <= 253 && DOMAIN_NAME.test(value)
    ? undefined
    : 'Enter a domain name such as example.com.';
