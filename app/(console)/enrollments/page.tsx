import { EnrollmentsPage } from '@/components/enrollments/EnrollmentsPage';

export const metadata = { title: 'Enrollments · Silo' };

export default function Page() {
  return <EnrollmentsPage />;
}
