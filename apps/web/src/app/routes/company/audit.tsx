import { AuditList } from '@/features/company/components/audit/audit-list';

export const AuditRoute = () => <AuditList />;
