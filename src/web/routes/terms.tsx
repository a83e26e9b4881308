import { Link } from 'react-router';
import { COMPANY } from '../../common/company';
import { LABELS } from '../../common/messages';
import { LEGAL_UPDATED, PRIVACY_SECTIONS, TERMS_SECTIONS, type LegalSection } from '../features/legal/legal-content';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

const PARTS = [
  { id: 'terms', heading: 'Terms of Service', sections: TERMS_SECTIONS },
  { id: 'privacy', heading: 'Privacy Policy', sections: PRIVACY_SECTIONS },
] as const;

const anchor = (part: string, index: number) => `${part}-${index + 1}`;

export default function TermsPage() {
  usePageTitle(PAGE_TITLES['/terms']);
  return (
    <div className="min-h-dvh bg-neutral-950 px-4 pb-24 pt-24 text-neutral-200 md:px-8">
      <div id="top" className="mx-auto max-w-3xl scroll-mt-24">
        <Link
          to="/"
          className="inline-flex items-center gap-2 text-sm font-semibold uppercase tracking-widest text-red-500 transition-colors hover:text-red-400 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-red-500"
        >
          <span aria-hidden="true">←</span> {LABELS.backToHome}
        </Link>

        <header className="mt-8 border-b border-neutral-800 pb-8">
          <p className="text-sm font-semibold uppercase tracking-[0.3em] text-red-500">Legal</p>
          <h1 className="mt-3 font-display text-5xl uppercase leading-none tracking-wide text-white md:text-6xl">
            Terms and Privacy Policy
          </h1>
          <p className="mt-4 text-sm text-neutral-400">Last updated: {LEGAL_UPDATED}</p>
          <p className="mt-4 leading-relaxed text-neutral-300">
            These terms and this privacy policy apply to everything {COMPANY.name} offers: the website, your account,
            and the highlight reels and photo stills we make from the games we film. Questions? E-mail us at{' '}
            <a href={`mailto:${COMPANY.email}`} className="font-medium text-red-400 underline underline-offset-4 hover:text-red-300">
              {COMPANY.email}
            </a>
            .
          </p>
        </header>

        <nav aria-labelledby="toc-heading" className="mt-10 rounded-lg border border-neutral-800 bg-neutral-900/60 p-6">
          <h2 id="toc-heading" className="font-display text-xl uppercase tracking-wide text-white">
            Contents
          </h2>
          <div className="mt-4 grid gap-8 sm:grid-cols-2">
            {PARTS.map((part) => (
              <div key={part.id}>
                <a
                  href={`#${part.id}`}
                  className="text-sm font-semibold uppercase tracking-widest text-red-500 hover:text-red-400"
                >
                  {part.heading}
                </a>
                <ol className="mt-3 space-y-1.5 text-sm">
                  {part.sections.map((section, i) => (
                    <li key={section.title} className="flex gap-2">
                      <span className="w-6 shrink-0 text-right tabular-nums text-neutral-400">{i + 1}.</span>
                      <a
                        href={`#${anchor(part.id, i)}`}
                        className="text-neutral-300 underline-offset-4 hover:text-white hover:underline"
                      >
                        {section.title}
                      </a>
                    </li>
                  ))}
                </ol>
              </div>
            ))}
          </div>
        </nav>

        {PARTS.map((part) => (
          <section key={part.id} id={part.id} aria-labelledby={`${part.id}-heading`} className="mt-16 scroll-mt-24">
            <h2
              id={`${part.id}-heading`}
              className="border-l-4 border-red-500 pl-4 font-display text-3xl uppercase tracking-wide text-white md:text-4xl"
            >
              {part.heading}
            </h2>
            <div className="mt-8 space-y-10">
              {part.sections.map((section, i) => (
                <LegalArticle key={section.title} id={anchor(part.id, i)} number={i + 1} section={section} />
              ))}
            </div>
          </section>
        ))}

        <footer className="mt-16 border-t border-neutral-800 pt-8 text-sm text-neutral-400">
          <p>
            {COMPANY.name} · Contact:{' '}
            <a href={`mailto:${COMPANY.email}`} className="text-red-400 underline underline-offset-4 hover:text-red-300">
              {COMPANY.email}
            </a>
          </p>
          <a href="#top" className="mt-4 inline-block text-neutral-400 underline-offset-4 hover:text-white hover:underline">
            Back to top
          </a>
        </footer>
      </div>
    </div>
  );
}

function LegalArticle({ id, number, section }: { id: string; number: number; section: LegalSection }) {
  return (
    <article id={id} className="scroll-mt-24">
      <h3 className="flex gap-3 text-lg font-semibold text-white md:text-xl">
        <span className="tabular-nums text-red-500">{number}.</span>
        <span>{section.title}</span>
      </h3>
      <div className="mt-3 space-y-4 leading-relaxed text-neutral-300">
        {section.paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
    </article>
  );
}
