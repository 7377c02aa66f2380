import type { ReactNode } from 'react';
import '@fontsource-variable/inter';
import './globals.css';
import { Providers } from '@/components/Providers';

export const metadata = { title: 'Silo', description: 'Entries, files and versions for e-invoicing apps' };

// Sets the theme before the first paint, so a dark-mode user never sees a white flash.
const THEME_SCRIPT = `try{var t=localStorage.getItem('silo-theme');if(!t)t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';document.documentElement.dataset.theme=t}catch(e){}`;

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: THEME_SCRIPT is a constant we own (no user input); it must run inline before first paint */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
