import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/lib/api/api-error';
import type { ListQueryArgs } from '@/lib/list-url';
import type { MatchingIds } from './list-types';

/**
 * "Select all N matching": the ids the server says the current search and filters match. They
 * stand only while that query is unchanged and the whole page stays selected.
 */
export function useMatchingSelection(
  query: ListQueryArgs,
  fetchMatchingIds: ((query: ListQueryArgs) => Promise<MatchingIds>) | undefined,
  noun: [string, string],
) {
  const queryKey = JSON.stringify([query.search, query.filters]);
  const [matching, setMatching] = useState<{
    key: string;
    ids: string[];
    truncated: boolean;
  } | null>(null);
  const [loading, setLoading] = useState(false);
  const select = async () => {
    if (!fetchMatchingIds) return;
    setLoading(true);
    try {
      const answer = await fetchMatchingIds(query);
      setMatching({ key: queryKey, ids: answer.ids, truncated: answer.truncated });
    } catch (error) {
      toast.error(`Could not select every matching ${noun[0]}: ${errorMessage(error)}`);
    } finally {
      setLoading(false);
    }
  };
  /** The matching ids while they still stand for the view. */
  const current = (wholePageSelected: boolean) =>
    matching?.key === queryKey && wholePageSelected ? matching : null;
  return { current, select, loading, forget: () => setMatching(null) };
}
