import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';

type Openable = ComponentType<{ defaultOpen?: boolean }>;

/** What the look-alike trigger of an on-demand control gets: load on intent, open on click. */
export interface OnDemandTriggerProps {
  onClick: () => void;
  onPointerEnter: () => void;
  onFocus: () => void;
}

/**
 * A menu whose code (Radix and its positioning) is fetched when it is first used, to keep it out of
 * the first load of the public pages: `trigger` renders a look-alike button until then; hovering or
 * focusing it starts the download, a click renders the real control in its place, already open.
 */
export function onDemand(load: () => Promise<Openable>) {
  let pending: Promise<{ default: Openable }> | undefined;
  const preload = () => (pending ??= load().then((Component) => ({ default: Component })));
  const Loaded = lazy(preload);
  return function OnDemand({
    trigger,
  }: {
    trigger: (props: OnDemandTriggerProps) => ReactElement;
  }) {
    const [used, setUsed] = useState(false);
    const stub = trigger({
      onClick: () => setUsed(true),
      onPointerEnter: () => void preload(),
      onFocus: () => void preload(),
    });
    if (!used) return stub;
    return (
      <Suspense fallback={stub}>
        <Loaded defaultOpen />
      </Suspense>
    );
  };
}
