import { ChevronRight } from 'lucide-react';
import { useSelector } from 'react-redux';
import { Link, useLocation } from 'react-router';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import {
  Sidebar,
  SidebarContent,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '@/components/ui/sidebar';
import { LOGO_ALT, LOGO_SRC, PRODUCT_NAME } from '@/config/brand';
import { isNavItemActive, NAV_GROUPS, visibleNavItems } from '@/config/navigation';
import { selectUserDetails } from '@/lib/signed-in/auth-slice';

/** Sidebar with the collapsible "Games" and "Company" groups, open by default (docs/product/web.md §2). */
export function AppSidebar() {
  const { pathname } = useLocation();
  const { isMobile, setOpenMobile } = useSidebar();
  const permissions = useSelector(selectUserDetails)?.permissions;
  const closeOnMobile = () => {
    if (isMobile) setOpenMobile(false);
  };

  return (
    <Sidebar aria-label="Sidebar">
      <SidebarHeader>
        <SidebarMenu>
          <SidebarMenuItem>
            <SidebarMenuButton asChild className="h-12">
              <Link to="/app" onClick={closeOnMobile}>
                <img src={LOGO_SRC} alt={LOGO_ALT} className="size-8! shrink-0" />
                <span className="grid leading-tight">
                  <span className="font-semibold">{PRODUCT_NAME}</span>
                </span>
              </Link>
            </SidebarMenuButton>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarHeader>
      <SidebarContent>
        <nav aria-label="Application">
          {NAV_GROUPS.map((group) => (
            <Collapsible key={group.title} defaultOpen className="group/collapsible">
              <SidebarGroup>
                <SidebarGroupLabel asChild>
                  <CollapsibleTrigger className="w-full hover:bg-sidebar-accent hover:text-sidebar-accent-foreground">
                    {group.title}
                    <ChevronRight
                      aria-hidden="true"
                      className="ml-auto transition-transform duration-200 group-data-[state=open]/collapsible:rotate-90"
                    />
                  </CollapsibleTrigger>
                </SidebarGroupLabel>
                <CollapsibleContent>
                  <SidebarMenu>
                    {visibleNavItems(group.items, permissions).map((item) => {
                      const active = isNavItemActive(item.url, pathname);
                      return (
                        <SidebarMenuItem key={item.title}>
                          <SidebarMenuButton asChild isActive={active} tooltip={item.title}>
                            <Link
                              to={item.url}
                              aria-current={active ? 'page' : undefined}
                              onClick={closeOnMobile}
                            >
                              <item.icon aria-hidden="true" />
                              <span>{item.title}</span>
                            </Link>
                          </SidebarMenuButton>
                        </SidebarMenuItem>
                      );
                    })}
                  </SidebarMenu>
                </CollapsibleContent>
              </SidebarGroup>
            </Collapsible>
          ))}
        </nav>
      </SidebarContent>
    </Sidebar>
  );
}
