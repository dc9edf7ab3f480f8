import type * as React from 'react';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { DialogAction, DialogCancel, DialogFrame } from '@/components/confirm-dialog';
import { DANGER_BUTTON } from '@/lib/danger-button';

/** What the dialog says; the default fits a form with unsaved changes. */
interface LeaveWording {
  title: string;
  description: string;
  stay: string;
  leave: string;
}
const UNSAVED_CHANGES: LeaveWording = {
  title: 'Leave without saving?',
  description: 'Your changes on this page have not been saved and will be lost.',
  stay: 'Stay on this page',
  leave: 'Leave and discard',
};

/**
 * Asks before leaving a page that would lose something — a form with unsaved changes, an upload in
 * flight (in-app navigation; a reload gets the browser's own prompt).
 */
export function LeaveGuard({
  when,
  bypass,
  wording = UNSAVED_CHANGES,
}: {
  when: boolean;
  /** True once the form was saved and the page is leaving on purpose. */
  bypass?: React.RefObject<boolean>;
  wording?: LeaveWording;
}) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && !bypass?.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!bypass?.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when, bypass]);
  return (
    <DialogFrame
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
      title={wording.title}
      description={wording.description}
      footer={
        <>
          <DialogCancel>{wording.stay}</DialogCancel>
          <DialogAction
            className={DANGER_BUTTON}
            onClick={() => blocker.state === 'blocked' && blocker.proceed()}
          >
            {wording.leave}
          </DialogAction>
        </>
      }
    />
  );
}
