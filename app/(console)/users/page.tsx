import { UserList } from '@/components/users/UserList';

export const metadata = { title: 'Users · Silo' };

export default function UsersPage() {
  return <UserList />;
}
