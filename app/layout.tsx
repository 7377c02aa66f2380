import type { ReactNode } from 'react';

export const metadata = { title: 'Silo', description: 'Entries, files and versions for e-invoicing apps' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
