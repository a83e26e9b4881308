// The home page hero: a still of the game (the first thing painted, and preloaded by the
// prerendered page), then the muted looping video over it once the page has loaded, in its own
// file for phones. The headline and the call to action sit on top.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { MOBILE_BREAKPOINT_PX } from '../../../common/constants';
import { BRAND } from '../../../common/messages';
import { PRICES } from '../../../common/prices';
import { Button } from '../../ui/button';

const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;

/** Which video to show, chosen after the page has loaded so it never competes with the still. */
function useHeroVideo(): 'desktop' | 'mobile' | null {
  const [variant, setVariant] = useState<'desktop' | 'mobile' | null>(null);
  useEffect(() => {
    const mql = window.matchMedia(MOBILE_QUERY);
    const pick = () => setVariant(mql.matches ? 'mobile' : 'desktop');
    let started = false;
    const start = () => {
      started = true;
      pick();
      mql.addEventListener('change', pick);
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      if (started) mql.removeEventListener('change', pick);
    };
  }, []);
  return variant;
}

export function Hero() {
  const variant = useHeroVideo();
  const [playing, setPlaying] = useState(false);
  return (
    <section className="relative flex h-dvh min-h-[560px] items-center justify-center overflow-hidden">
      <picture>
        <source media={MOBILE_QUERY} type="image/webp" srcSet="/hero/mobile.webp" />
        <source media={MOBILE_QUERY} srcSet="/hero/mobile.jpg" />
        <source type="image/webp" srcSet="/hero/desktop.webp" />
        <img
          src="/hero/desktop.jpg"
          alt=""
          fetchPriority="high"
          decoding="async"
          className="absolute inset-0 h-full w-full object-cover"
          data-testid="hero-still"
        />
      </picture>
      {variant && (
        <video
          key={variant}
          className={`absolute inset-0 h-full w-full object-cover transition-opacity duration-700 ${playing ? 'opacity-100' : 'opacity-0'}`}
          autoPlay
          muted
          loop
          playsInline
          preload="auto"
          aria-hidden="true"
          data-testid="hero-video"
          onPlaying={() => setPlaying(true)}
        >
          <source src={`/hero/${variant}.mp4`} type="video/mp4" />
        </video>
      )}
      <div className="absolute inset-0 bg-gradient-to-b from-black/50 via-black/30 to-neutral-950" />
      <div className="relative z-10 flex flex-col items-center px-4 text-center">
        <p className="mb-4 text-xs font-semibold uppercase tracking-[0.4em] text-red-400 md:text-sm">
          Multi-camera youth sports filming
        </p>
        <h1 className="font-display text-6xl leading-none tracking-wide text-white drop-shadow-2xl sm:text-7xl md:text-9xl">
          {BRAND.headline}
        </h1>
        <p className="mt-6 max-w-xl text-base text-neutral-200 md:text-lg">
          We film the game from every angle. You get your athlete's highlight reel and photo stills, ready to share.
        </p>
        <p className="mt-3 max-w-xl text-sm text-neutral-300 md:text-base" data-testid="home-price">
          {PRICES.home}
        </p>
        <Button asChild size="xl" className="mt-10">
          {/* A call to sign up opens the Create Account tab, as the nav bar's SIGN UP does. */}
          <Link to="/auth?tab=signup">{BRAND.signUpToday}</Link>
        </Button>
      </div>
    </section>
  );
}
