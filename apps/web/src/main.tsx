import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toasts, toastingMutations } from './components/Toasts';
import { StrictMode } from 'react';
import { RouterProvider } from 'react-aria-components';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { navigate } from './navigation';
import './styles.css';

const queries = new QueryClient({
  mutationCache: toastingMutations(),
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* Links of the app's own addresses (react-aria Link) move through navigate(), not a page load. */}
    <RouterProvider navigate={navigate}>
      <QueryClientProvider client={queries}>
        <App />
        <Toasts />
      </QueryClientProvider>
    </RouterProvider>
  </StrictMode>,
);
