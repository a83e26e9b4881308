// The home page hero: a muted looping video (its own file for phones), the headline and the
// call to action.
import { Link } from 'react-router';
import { BRAND } from '../../../common/messages';
import { useIsMobile } from '../../lib/use-media-query';
import { Button } from '../../ui/button';

export function Hero() {
  const mobile = useIsMobile();
  const variant = mobile ? 'mobile' : 'desktop';
  return (
    <section className="relative flex h-dvh min-h-[560px] items-center justify-center overflow-hidden">
      <video
        key={variant}
        className="absolute inset-0 h-full w-full object-cover"
        autoPlay
        muted
        loop
        playsInline
        preload="auto"
        poster={`/hero/${variant}.jpg`}
        aria-hidden="true"
        data-testid="hero-video"
      >
        <source src={`/hero/${variant}.mp4`} type="video/mp4" />
      </video>
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
        <Button asChild size="lg" className="mt-10 text-lg tracking-widest">
          <Link to="/auth">{BRAND.signUpToday}</Link>
        </Button>
      </div>
    </section>
  );
}
