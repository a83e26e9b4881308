import { Mail, MapPin, Phone } from 'lucide-react';
import { COMPANY } from '../../common/company';
import { CONTACT } from '../../common/messages';
import { ContactForm } from '../features/contact/contact-form';
import { Card, CardTitle } from '../ui/card';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

export default function ContactPage() {
  usePageTitle(PAGE_TITLES['/contact']);
  return (
    <div className="mx-auto max-w-7xl px-4 pb-20 pt-28 md:px-8">
      <h1 className="font-display text-5xl uppercase tracking-wide text-white md:text-6xl">Get in touch</h1>
      <p className="mt-3 max-w-2xl text-neutral-400">
        Questions about an event, a reel or filming your league? Send us a message and we will get back to you soon.
      </p>
      <div className="mt-10 grid gap-8 lg:grid-cols-[1.6fr_1fr]">
        <Card>
          <CardTitle className="mb-6">{CONTACT.formTitle}</CardTitle>
          <ContactForm />
        </Card>
        <Card className="h-fit">
          <CardTitle className="mb-6">{CONTACT.panelTitle}</CardTitle>
          <dl className="space-y-5 text-neutral-300">
            <div>
              <dt className="font-semibold text-white">{COMPANY.name}</dt>
              <dd className="mt-1 flex items-center gap-2">
                <MapPin className="h-4 w-4 text-red-500" aria-hidden="true" />
                {COMPANY.city}, {COMPANY.state}
              </dd>
              <dd className="mt-1 flex items-center gap-2">
                <Phone className="h-4 w-4 text-red-500" aria-hidden="true" />
                <a href={`tel:${COMPANY.phone.replace(/[^\d+]/g, '')}`} className="hover:text-white">{COMPANY.phone}</a>
              </dd>
              <dd className="mt-1 flex items-center gap-2">
                <Mail className="h-4 w-4 text-red-500" aria-hidden="true" />
                <a href={`mailto:${COMPANY.email}`} className="hover:text-white">{COMPANY.email}</a>
              </dd>
            </div>
            {COMPANY.cofounders.map((person) => (
              <div key={person.email} className="border-t border-neutral-800 pt-5">
                <dt className="font-semibold text-white">
                  {person.name} <span className="font-normal text-neutral-400">· {person.role}</span>
                </dt>
                <dd className="mt-1">
                  <a href={`mailto:${person.email}`} className="hover:text-white">{person.email}</a>
                </dd>
                <dd className="mt-1">
                  <a href={`tel:${person.phone.replace(/[^\d+]/g, '')}`} className="hover:text-white">{person.phone}</a>
                </dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </div>
  );
}
