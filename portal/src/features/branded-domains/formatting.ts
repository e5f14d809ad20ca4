/** A moment in the user's local time (stored in UTC), or a dash when there is none. */
export const formatWhen = (iso: string | null): string =>
  iso == null ? '—' : new Date(iso).toLocaleString();
