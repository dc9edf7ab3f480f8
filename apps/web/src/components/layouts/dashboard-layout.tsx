import type * as React from 'react';
import { Outlet } from 'react-router';
import { ThemeMenu } from '@/components/theme-menu';
import { Separator } from '@/components/ui/separator';
import { SidebarInset, SidebarProvider, SidebarTrigger } from '@/components/ui/sidebar';
import { AppBreadcrumb } from './app-breadcrumb';
import { AppSidebar } from './app-sidebar';

/** The protected shell of docs/product/web.md §2: sidebar, top bar, breadcrumb and content. */
export function DashboardLayout({
  accountMenu,
  commandPalette,
}: {
  accountMenu: React.ReactNode;
  /** The Ctrl/Cmd+K palette's button (a feature, so handed in by the app layer). */
  commandPalette?: React.ReactNode;
}) {
  return (
    <SidebarProvider>
      {/* First in the tab order: past the sidebar and top bar to the page. */}
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus-visible:ring-[3px] focus-visible:ring-ring"
      >
        Skip to content
      </a>
      <AppSidebar />
      <SidebarInset>
        <header className="print:hidden sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur sm:px-4">
          <SidebarTrigger className="-ml-1" />
          <Separator orientation="vertical" className="mr-1 h-4!" />
          <div className="min-w-0 flex-1 overflow-hidden">
            <AppBreadcrumb />
          </div>
          {commandPalette}
          <ThemeMenu />
          {accountMenu}
        </header>
        <main
          id="main-content"
          tabIndex={-1}
          className="flex flex-1 flex-col gap-4 p-4 outline-none sm:p-6 print:p-0"
        >
          <Outlet />
        </main>
      </SidebarInset>
    </SidebarProvider>
  );
}
