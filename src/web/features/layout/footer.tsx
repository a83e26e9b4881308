import { Link } from 'react-router';
import { COMPANY } from '../../../common/company';
import { BRAND } from '../../../common/messages';

export function Footer() {
  return (
    <footer className="border-t border-white/10 bg-neutral-950 px-4 py-10 text-sm text-neutral-400 md:px-8">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-4 md:flex-row">
        <p>{BRAND.copyright}</p>
        <nav aria-label="Footer" className="flex flex-wrap justify-center gap-x-6 gap-y-2">
          <Link to="/terms" className="hover:text-white">Terms &amp; Privacy</Link>
          <Link to="/contact" className="hover:text-white">Contact</Link>
          <a href={`mailto:${COMPANY.email}`} className="hover:text-white">{COMPANY.email}</a>
        </nav>
      </div>
    </footer>
  );
}
