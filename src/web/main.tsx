import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app';
import './styles.css';

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>
);
// Public pages arrive prerendered (their HTML is already in #root): hydrate them. Other pages
// get the empty shell and render here.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
