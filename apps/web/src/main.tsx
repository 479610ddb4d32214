import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toasts, toastingMutations } from './components/Toasts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

const queries = new QueryClient({
  mutationCache: toastingMutations(),
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <App />
      <Toasts />
    </QueryClientProvider>
  </StrictMode>,
);
