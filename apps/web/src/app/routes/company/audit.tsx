import { AuditList } from '@/features/audit/components/audit-list';

export const AuditRoute = () => <AuditList />;
