import { Camera, Film, ScanFace } from 'lucide-react';
import { Hero } from '../features/home/hero';
import { HomepageSignupForm } from '../features/home/homepage-signup-form';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

const STEPS = [
  {
    icon: Camera,
    title: 'We film every game',
    text: 'Several cameras cover the court, so every play is caught from the best angle.',
  },
  {
    icon: ScanFace,
    title: 'We find your athlete',
    text: 'Face and jersey-number recognition pick your athlete out of hours of footage.',
  },
  {
    icon: Film,
    title: 'You get the reel',
    text: 'A personalised highlight reel and photo stills, ready to watch, download and share.',
  },
];

export default function HomePage() {
  usePageTitle(PAGE_TITLES['/']);
  return (
    <>
      <Hero />
      <section aria-labelledby="how-it-works" className="mx-auto max-w-7xl px-4 py-20 md:px-8">
        <h2 id="how-it-works" className="font-display text-4xl uppercase tracking-wide text-white md:text-5xl">
          How it works
        </h2>
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {STEPS.map(({ icon: Icon, title, text }, i) => (
            <li key={title} className="rounded-xl border border-neutral-800 bg-neutral-900/60 p-6">
              <div className="flex items-center gap-3">
                <span className="font-display text-3xl text-red-500">0{i + 1}</span>
                <Icon className="h-6 w-6 text-neutral-300" aria-hidden="true" />
              </div>
              <h3 className="mt-4 text-lg font-bold text-white">{title}</h3>
              <p className="mt-2 text-neutral-400">{text}</p>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="get-started" className="border-y border-neutral-800 bg-neutral-900/40">
        <div className="mx-auto max-w-7xl px-4 py-16 md:px-8">
          <h2 id="get-started" className="font-display text-3xl uppercase tracking-wide text-white md:text-4xl">
            Get your athlete on tape
          </h2>
          <p className="mb-8 mt-2 text-neutral-400">Start with your name and email. You can finish the athlete profile next.</p>
          <HomepageSignupForm />
        </div>
      </section>
    </>
  );
}
