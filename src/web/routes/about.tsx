import { Link } from 'react-router';
import { Button } from '../ui/button';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

export default function AboutPage() {
  usePageTitle(PAGE_TITLES['/about']);
  return (
    <div className="mx-auto grid max-w-7xl gap-12 px-4 pb-20 pt-28 md:grid-cols-[1.2fr_1fr] md:px-8">
      <article className="space-y-5 text-lg leading-relaxed text-neutral-300">
        <p className="text-sm font-semibold uppercase tracking-[0.3em] text-red-400">Our story</p>
        <h1 className="font-display text-5xl uppercase leading-none tracking-wide text-white md:text-6xl">
          Every athlete deserves a highlight reel
        </h1>
        <p>
          We started filming youth games from the bleachers with a single camera, trying to catch our own kids' best
          moments. We missed most of them: the ball went one way, the camera the other, and the footage sat on a phone
          nobody opened again.
        </p>
        <p>
          So we built what we wished we had. At every event we film, several cameras cover the whole court. After the
          final whistle our software looks for your athlete by face and jersey number across every angle, and cuts the
          plays that matter into a reel you can watch, download and send to family, coaches and recruiters.
        </p>
        <p>
          Today we film leagues and tournaments for clubs across the country, and every reel still gets a human look
          before it reaches you. Athletes are young; their footage stays private to their family and our team.
        </p>
        <div className="flex flex-wrap gap-3 pt-4">
          <Button asChild size="lg">
            <Link to="/auth">SIGN UP TODAY</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/contact">Talk to us</Link>
          </Button>
        </div>
      </article>
      <figure className="mx-auto w-full max-w-md">
        <picture>
          <source type="image/webp" srcSet="/about/cover-600.webp 600w, /about/cover-900.webp 900w" sizes="(min-width: 768px) 448px, calc(100vw - 2rem)" />
          <img
            src="/about/cover.jpg"
            alt="A magazine cover titled Get It On Tape featuring a young athlete"
            width={900}
            height={1200}
            fetchPriority="high"
            className="w-full rotate-1 rounded-lg shadow-2xl shadow-red-900/30 ring-1 ring-white/10"
          />
        </picture>
        <figcaption className="mt-4 text-center text-sm text-neutral-400">Made for the next generation of athletes.</figcaption>
      </figure>
    </div>
  );
}
