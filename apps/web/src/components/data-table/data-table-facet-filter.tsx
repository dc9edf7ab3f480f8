import type * as React from 'react';
import { ListFilter, X } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { joinFilterValues, splitFilterValues } from '@/lib/list-url';

export interface FacetOption {
  value: string;
  label: string;
  /** A heading the option is listed under (a long list in groups: the audit trail's actions). */
  group?: string;
}

/** Options found by a search on the server (the audit trail's "Who" among all users). */
export interface FacetSearch {
  label: string;
  text: string;
  onText: (text: string) => void;
  busy: boolean;
}

/**
 * One faceted filter taking several values (any of them matches; the URL and the API join them
 * with commas), or one with `single`. Not modal, so the page behind it stays in the accessibility tree (axe
 * `aria-hidden-focus`); with `search`, the options come from the server as the user types.
 */
export function DataTableFacetFilter({
  title,
  options,
  value,
  onChange,
  search,
  labelOf,
  single,
}: {
  title: string;
  options: readonly FacetOption[];
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  search?: FacetSearch;
  /** The label of a chosen value that is not among the options (an older search's result). */
  labelOf?: (value: string) => string;
  /** One value at a time (the API takes one for this filter). */
  single?: boolean | undefined;
}) {
  const searchId = useId();
  const chosen = splitFilterValues(value);
  const label = (v: string) => options.find((o) => o.value === v)?.label ?? labelOf?.(v) ?? v;
  const summary = chosen.length > 2 ? `${chosen.length} selected` : chosen.map(label).join(', ');
  const toggle = (v: string, on: boolean) =>
    onChange(
      single
        ? on
          ? v
          : undefined
        : joinFilterValues(on ? [...chosen, v] : chosen.filter((c) => c !== v)),
    );
  const item = (option: FacetOption) => (
    <DropdownMenuCheckboxItem
      key={option.value}
      checked={chosen.includes(option.value)}
      onCheckedChange={(on) => toggle(option.value, on === true)}
      // Several values: the menu stays open for the next one.
      onSelect={(event) => (single ? undefined : event.preventDefault())}
    >
      {option.label}
    </DropdownMenuCheckboxItem>
  );
  const shown = [
    ...chosen
      .filter((v) => !options.some((o) => o.value === v))
      .map((v) => ({ value: v, label: label(v) })),
    ...options,
  ];
  const menu = (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <FacetButton title={title} chosen={chosen.map(label)} summary={summary} />
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="start"
        className="max-h-80 min-w-52 overflow-y-auto"
        regionLabel={`${title} filter`}
        // A long list scrolls: the arrow keys move through it, and the scrolling menu itself is in
        // the tab order too, as a scrollable region must be (axe scrollable-region-focusable).
        tabIndex={0}
      >
        <DropdownMenuLabel>{title}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {groupsOf(shown).map(({ heading, options: listed }, at) =>
          heading === undefined ? (
            listed.map(item)
          ) : (
            <DropdownMenuGroup key={heading} aria-labelledby={`${searchId}-group-${at}`}>
              <DropdownMenuLabel
                id={`${searchId}-group-${at}`}
                className="text-xs font-normal text-muted-foreground"
              >
                {heading}
              </DropdownMenuLabel>
              {listed.map(item)}
            </DropdownMenuGroup>
          ),
        )}
        {shown.length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">No matches.</p>
        ) : null}
        {chosen.length ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => onChange(undefined)}>
              <X aria-hidden="true" /> Clear {title.toLowerCase()} filter
            </DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
  if (!search) return menu;
  // The search field sits beside the menu: a menu may hold only items (axe aria-required-children).
  return (
    <div className="flex items-center gap-1">
      <label htmlFor={searchId} className="sr-only">
        {search.label}
      </label>
      <input
        id={searchId}
        type="search"
        value={search.text}
        placeholder={search.label}
        onChange={(event) => search.onText(event.target.value)}
        className="h-8 w-36 rounded-md border bg-transparent px-2 text-sm"
        aria-busy={search.busy || undefined}
      />
      {menu}
    </div>
  );
}

/** The filter's button: its title and, once chosen, a summary of the values. */
function FacetButton({
  title,
  chosen,
  summary,
  ...props
}: React.ComponentProps<typeof Button> & { title: string; chosen: string[]; summary: string }) {
  return (
    <Button
      {...props}
      variant="outline"
      size="sm"
      className="h-8 border-dashed"
      aria-label={`Filter by ${title}${chosen.length ? `: ${chosen.join(', ')}` : ''}`}
    >
      {/* the dashed border says "filter" already: the icon goes on a narrow screen, for room */}
      <ListFilter aria-hidden="true" className="max-sm:hidden" />
      {title}
      {chosen.length ? (
        <Badge variant="secondary" className="max-w-40 truncate rounded-sm px-1 font-normal">
          {summary}
        </Badge>
      ) : null}
    </Button>
  );
}

/** Options in runs of the same group, in their order (options without a group: one run, no heading). */
function groupsOf(options: readonly FacetOption[]) {
  const runs: { heading: string | undefined; options: FacetOption[] }[] = [];
  for (const option of options) {
    const last = runs.at(-1);
    if (last && last.heading === option.group) last.options.push(option);
    else runs.push({ heading: option.group, options: [option] });
  }
  return runs;
}
