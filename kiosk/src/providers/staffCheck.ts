import type { SupabaseClient } from '@supabase/supabase-js';

/**
 * "Is the signed-in user staff?", asked of the database (public.is_staff(), the same
 * app.is_staff() every kiosk policy uses) once per signed-in user. The answer only decides
 * which page to show: the data itself is staff-only by row-level security whatever the kiosk
 * shows.
 */
export function createStaffCheck(client: SupabaseClient): () => Promise<boolean> {
  let cached: { userId: string; answer: Promise<boolean> } | undefined;
  return async () => {
    const { data } = await client.auth.getSession();
    const userId = data.session?.user.id;
    if (!userId) return false;
    if (cached?.userId !== userId) {
      const answer = (async () => {
        const { data: isStaff, error } = await client.rpc('is_staff');
        if (error) throw new Error(`Could not check staff access: ${error.message}`);
        return isStaff === true;
      })();
      cached = { userId, answer };
    }
    const current: { answer: Promise<boolean> } = cached;
    try {
      return await current.answer;
    } catch (error) {
      // A failed check is asked again next time rather than remembered.
      if (cached === current) cached = undefined;
      throw error;
    }
  };
}
