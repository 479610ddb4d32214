/**
 * The tabs of an item's page, the chosen one in the address (`/streams/<id>/dead-letters`; the first
 * tab has no suffix), so a reload or a shared link opens the same tab and the back button returns to
 * the previous one. Only the chosen tab's panel is mounted (react-aria's default).
 */
import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useItemTab } from '../navigation';

export interface ItemTab<T extends string> {
  id: T;
  title: string;
  content: () => ReactNode;
}

export function ItemTabs<T extends string>({
  base,
  itemId,
  label,
  tabs,
  tab,
  onTab,
}: {
  base: string;
  itemId: string;
  /** Names the tab list: "Sections of orders". */
  label: string;
  tabs: readonly [ItemTab<T>, ...ItemTab<T>[]];
  /** The chosen tab and its setter, when the page chooses tabs itself (see useItemTab); else the address's. */
  tab?: T;
  onTab?: (tab: T) => void;
}) {
  const ids = tabs.map((t) => t.id) as [T, ...T[]];
  const [fromAddress, setInAddress] = useItemTab(base, itemId, ids);
  const chosen = tab ?? fromAddress;
  const choose = onTab ?? setInAddress;
  return (
    <Tabs selectedKey={chosen} onSelectionChange={(key) => choose(key as T)}>
      <TabList aria-label={label}>
        {tabs.map((t) => (
          <Tab key={t.id} id={t.id}>
            {t.title}
          </Tab>
        ))}
      </TabList>
      {tabs.map((t) => (
        <TabPanel key={t.id} id={t.id}>
          {t.content()}
        </TabPanel>
      ))}
    </Tabs>
  );
}
