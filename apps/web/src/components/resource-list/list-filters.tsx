import { RotateCcw, X } from 'lucide-react';
import type * as React from 'react';
import { formatSort } from '@pa/contracts/list-query';
import { Button } from '@/components/ui/button';
import { DataTableFacetFilter } from '@/components/data-table/data-table-facet-filter';
import { SearchInput } from '@/components/data-table/search-input';
import type { ListViewControls } from '@/hooks/use-list-view';
import type { ListUrlConfig } from '@/lib/list-url';
import type { Facet } from './list-types';

/** Anything "Reset filters" would change: filters, search, or a sort other than the default. */
export function filtersActiveIn(controls: ListViewControls, urlConfig: ListUrlConfig) {
  const { view } = controls;
  return (
    Object.keys(view.filters).length > 0 ||
    view.searchCriteria !== '' ||
    formatSort(view.sort) !== formatSort(urlConfig.defaultSort)
  );
}

/**
 * Search, facet filters, extra filters and the reset buttons of a list's toolbar. On a narrow
 * screen the reset buttons are icons (named for assistive technology), so the toolbar takes fewer
 * rows before the first record.
 */
export function ListFilters({
  controls,
  facets,
  searchLabel,
  extra,
  filtersActive,
  onResetView,
}: {
  controls: ListViewControls;
  facets: Facet[];
  searchLabel: string;
  extra?: React.ReactNode;
  filtersActive: boolean;
  /** "Reset view" (filters, sort, page size and columns), for lists that offer it. */
  onResetView?: () => void;
}) {
  const { view } = controls;
  return (
    <div className="contents">
      <SearchInput value={view.searchCriteria} onChange={controls.setSearch} label={searchLabel} />
      {facets.map((facet) => (
        <DataTableFacetFilter
          key={facet.key}
          title={facet.title}
          options={facet.options}
          single={facet.single}
          search={facet.search}
          labelOf={facet.labelOf}
          value={view.filters[facet.key]}
          onChange={(value) => controls.setFilter(facet.key, value)}
        />
      ))}
      {extra}
      {filtersActive ? (
        <Button variant="ghost" size="sm" className="h-8" onClick={controls.resetFilters}>
          <X aria-hidden="true" /> <span className="max-sm:sr-only">Reset filters</span>
        </Button>
      ) : null}
      {onResetView ? (
        <Button variant="ghost" size="sm" className="h-8" onClick={onResetView}>
          <RotateCcw aria-hidden="true" /> <span className="max-sm:sr-only">Reset view</span>
        </Button>
      ) : null}
    </div>
  );
}
