import { useEffect, useState } from 'react';

/** How often a running job (an analysis, a limit run) is asked for its progress. */
export const POLL_MS = 500;

/** Whether the page is visible: polling pauses while the tab is hidden. */
export function useDocumentVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return visible;
}
