import { Search } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { cn } from '@/lib/utils';
import type { PaletteItem } from './palette-items';
import { usePaletteResults } from './use-palette-results';

/**
 * The palette's search box and results, as the ARIA combobox pattern with a grouped listbox: focus
 * stays in the box, arrows move the active option (`aria-activedescendant`), Enter opens it.
 */
export function PalettePanel({ onPick }: { onPick: (item: PaletteItem) => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const { groups, searching } = usePaletteResults(query);
  const baseId = useId();
  const items = groups.flatMap((group) => group.items);
  const current = Math.min(active, Math.max(items.length - 1, 0));
  const optionId = (index: number) => `${baseId}-option-${index}`;
  const listId = `${baseId}-list`;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (items.length === 0) return;
    const move = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (move) {
      event.preventDefault();
      setActive((current + move + items.length) % items.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onPick(items[current]!);
    }
  };

  const starts = groups.map((_, g) =>
    groups.slice(0, g).reduce((sum, group) => sum + group.items.length, 0),
  );
  return (
    <div className="flex flex-col">
      <div className="flex items-center gap-2 border-b px-3">
        <Search aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
        <input
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-activedescendant={items.length ? optionId(current) : undefined}
          aria-autocomplete="list"
          aria-label="Go to a page, user or role"
          placeholder="Type a page, user or role…"
          className="h-12 w-full bg-transparent text-sm outline-none placeholder:text-muted-foreground"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      <div role="listbox" id={listId} aria-label="Results" className="max-h-80 overflow-y-auto p-2">
        {groups.map((group, g) => (
          <div key={group.id} role="group" aria-labelledby={`${baseId}-${group.id}`}>
            <div
              id={`${baseId}-${group.id}`}
              className="px-2 pt-2 pb-1 text-xs font-medium text-muted-foreground"
            >
              {group.heading}
            </div>
            {group.items.map((item, i) => {
              const mine = starts[g]! + i;
              return (
                // Keys go to the combobox (aria-activedescendant), so an option only takes clicks.
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                <div
                  key={item.id}
                  id={optionId(mine)}
                  role="option"
                  aria-selected={mine === current}
                  tabIndex={-1}
                  className={cn(
                    'flex cursor-pointer flex-col rounded-md px-2 py-1.5 text-sm',
                    mine === current && 'bg-accent text-accent-foreground',
                  )}
                  onMouseMove={() => setActive(mine)}
                  onClick={() => onPick(item)}
                >
                  <span className="truncate">{item.label}</span>
                  <span className="truncate text-xs text-muted-foreground">{item.hint}</span>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <p role="status" className="border-t px-3 py-2 text-xs text-muted-foreground">
        {searching
          ? 'Searching…'
          : items.length === 0
            ? 'Nothing matches. Try another word.'
            : `${items.length} result${items.length === 1 ? '' : 's'}. Arrow keys to move, Enter to open.`}
      </p>
    </div>
  );
}
