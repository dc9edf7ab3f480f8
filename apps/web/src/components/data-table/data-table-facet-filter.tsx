import { ListFilter } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

export interface FacetOption {
  value: string;
  label: string;
}

const ALL = '__all__';

/** One faceted filter (the API takes one value per filter): "All" or one of the options. */
export function DataTableFacetFilter({
  title,
  options,
  value,
  onChange,
}: {
  title: string;
  options: readonly FacetOption[];
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const current = options.find((o) => o.value === value);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          size="sm"
          className="h-8 border-dashed"
          aria-label={`Filter by ${title}${value ? `: ${current?.label ?? value}` : ''}`}
        >
          <ListFilter aria-hidden="true" />
          {title}
          {value ? (
            <Badge variant="secondary" className="max-w-40 truncate rounded-sm px-1 font-normal">
              {current?.label ?? value}
            </Badge>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-80 min-w-48">
        <DropdownMenuLabel>{title}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup
          value={value ?? ALL}
          onValueChange={(v) => onChange(v === ALL ? undefined : v)}
        >
          <DropdownMenuRadioItem value={ALL}>All</DropdownMenuRadioItem>
          {options.map((option) => (
            <DropdownMenuRadioItem key={option.value} value={option.value}>
              {option.label}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
