import { useState } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date the filter can use: a whole `yyyy-mm-dd` from 1900 on (the audit API's range). A date
 * field reports every keystroke of the year as a date — typing 2026 after month and day gives
 * 0002-11-28, then 0020-, 0202- — so only a year past 1900 counts while the person types.
 */
export const isFilterDate = (text: string) =>
  DATE.test(text) && Number(text.slice(0, 4)) >= 1900 && !Number.isNaN(Date.parse(text));

/**
 * "From" / "To" of the audit filter. What the person types stays in the field; the filter changes
 * only when the field holds a whole date (or is left empty), so the year can be typed digit by digit.
 * A change of the filter elsewhere ("Clear filters", the URL) shows in the field.
 */
export function DateFilterInput({
  id,
  label,
  value,
  onCommit,
}: {
  id: string;
  label: string;
  /** The filter's value (from the URL); anything but a date shows as an empty field. */
  value: string | undefined;
  onCommit: (value: string | undefined) => void;
}) {
  const filterValue = value && DATE.test(value) ? value : '';
  const [text, setText] = useState(filterValue);
  const [shown, setShown] = useState(filterValue);
  // the filter changed from outside the field: show it (React's "adjust state on prop change")
  if (shown !== filterValue) {
    setShown(filterValue);
    setText(filterValue);
  }
  // An emptied field clears the filter on blur or Enter only: a half-typed date also reads as empty.
  const commit = (next: string, done: boolean) => {
    if (next === filterValue) return;
    if (next === '') {
      if (done) onCommit(undefined);
    } else if (isFilterDate(next)) onCommit(next);
  };
  return (
    <div className="flex items-center gap-1.5">
      <Label htmlFor={id} className="text-sm font-normal">
        {label}
      </Label>
      <Input
        id={id}
        type="date"
        className="h-8 w-36"
        min="1900-01-01"
        max="9999-12-30"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          commit(e.target.value, false);
        }}
        onBlur={(e) => commit(e.target.value, true)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value, true);
        }}
      />
    </div>
  );
}
