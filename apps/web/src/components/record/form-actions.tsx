import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/** Submit and Cancel of a record form: "Save changes" when editing, `createLabel` when creating. */
export function RecordFormActions({
  submitting,
  editing,
  createLabel,
  cancelTo,
}: {
  submitting: boolean;
  editing: boolean;
  createLabel: string;
  cancelTo: string;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" disabled={submitting}>
        {submitting ? 'Saving…' : editing ? 'Save changes' : createLabel}
      </Button>
      <Button asChild variant="outline">
        <Link to={cancelTo}>Cancel</Link>
      </Button>
    </div>
  );
}
